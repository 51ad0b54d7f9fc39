import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '#domain/index.js';

/**
 * The catalog as what the log changed: custom names added and built-in names gone. Built-in
 * names are the build's, not the snapshot's, so a newer build's new standard names are there
 * after a snapshot of an older one.
 */
export interface NameCatalogSnapshot {
  readonly classes: { readonly added: readonly string[]; readonly removed: readonly string[] };
  readonly traits: { readonly added: readonly string[]; readonly removed: readonly string[] };
}

const STANDARD_CLASSES: ReadonlySet<string> = new Set(STANDARD_RESOURCE_CLASSES);
const STANDARD_TRAIT_SET: ReadonlySet<string> = new Set(STANDARD_TRAITS);

function changes(names: ReadonlySet<string>, standard: ReadonlySet<string>) {
  return { added: [...names].filter((name) => !standard.has(name)), removed: [...standard].filter((name) => !names.has(name)) };
}

/** Which resource classes and traits exist: the built-in names plus the custom ones the log created. */
export class NameCatalog {
  private readonly classes = new Set(STANDARD_RESOURCE_CLASSES);
  private readonly traits = new Set(STANDARD_TRAITS);
  private changes = 0;

  /** Moves forward whenever a name comes or goes, so an unchanged value means an unchanged catalog. */
  get version(): number {
    return this.changes;
  }

  hasClass(name: string): boolean {
    return this.classes.has(name);
  }

  hasTrait(name: string): boolean {
    return this.traits.has(name);
  }

  addClass(name: string): void {
    if (!this.classes.has(name)) this.changes++;
    this.classes.add(name);
  }

  removeClass(name: string): void {
    if (this.classes.delete(name)) this.changes++;
  }

  addTrait(name: string): void {
    if (!this.traits.has(name)) this.changes++;
    this.traits.add(name);
  }

  removeTrait(name: string): void {
    if (this.traits.delete(name)) this.changes++;
  }

  toSnapshot(): NameCatalogSnapshot {
    return { classes: changes(this.classes, STANDARD_CLASSES), traits: changes(this.traits, STANDARD_TRAIT_SET) };
  }

  static fromSnapshot(snapshot: NameCatalogSnapshot): NameCatalog {
    const catalog = new NameCatalog();
    for (const name of snapshot.classes.removed) catalog.removeClass(name);
    for (const name of snapshot.classes.added) catalog.addClass(name);
    for (const name of snapshot.traits.removed) catalog.removeTrait(name);
    for (const name of snapshot.traits.added) catalog.addTrait(name);
    return catalog;
  }
}
