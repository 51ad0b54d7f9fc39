/** The owners given to consumers written below 1.8 (IncompleteOwners), from AppConfig.allocations. */
export const INCOMPLETE_OWNERS = Symbol('INCOMPLETE_OWNERS');
