/** The shape every stream type's decider has: plain functions over plain data. */
export interface Decider<Command, Event, State> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (command: Command, state: State) => Event[];
}

export function replay<Event, State>(evolve: (s: State, e: Event) => State, initial: State, events: readonly Event[]): State {
  return events.reduce(evolve, initial);
}
