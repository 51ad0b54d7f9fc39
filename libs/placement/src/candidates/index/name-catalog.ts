import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '../../../../domain/src/index.js';

/** Which resource classes and traits exist: the built-in names plus the custom ones the log created. */
export class NameCatalog {
  private readonly classes = new Set(STANDARD_RESOURCE_CLASSES);
  private readonly traits = new Set(STANDARD_TRAITS);

  hasClass(name: string): boolean {
    return this.classes.has(name);
  }

  hasTrait(name: string): boolean {
    return this.traits.has(name);
  }

  addClass(name: string): void {
    this.classes.add(name);
  }

  removeClass(name: string): void {
    this.classes.delete(name);
  }

  addTrait(name: string): void {
    this.traits.add(name);
  }

  removeTrait(name: string): void {
    this.traits.delete(name);
  }
}
