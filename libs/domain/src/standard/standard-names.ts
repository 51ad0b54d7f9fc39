import resourceClasses from './os-resource-classes.json';
import traits from './os-traits.json';

/** os-resource-classes in canonical order: the index is the class id, as upstream. */
export const STANDARD_RESOURCE_CLASSES: readonly string[] = resourceClasses;
export const STANDARD_TRAITS: readonly string[] = traits;

const standardClassSet = new Set(STANDARD_RESOURCE_CLASSES);
const standardTraitSet = new Set(STANDARD_TRAITS);

export const isStandardResourceClass = (name: string) => standardClassSet.has(name);
export const isStandardTrait = (name: string) => standardTraitSet.has(name);

/** Custom resource classes are numbered from here, as upstream. */
export const FIRST_CUSTOM_RESOURCE_CLASS_ID = 10000;
