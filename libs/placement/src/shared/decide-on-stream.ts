import { Caller } from './caller.js';
import { CommandRunner } from './command-runner.js';
import { StreamType } from './decider-states.js';

/**
 * A command over one stream (a custom resource class, a custom trait): load it, decide on its
 * state, append; true when something was appended. `decide` runs in each attempt, so what it
 * reads besides the stream (is the class in use?) is read again after a lost race.
 */
export function decideOnStream<State, Event extends { readonly type: string; readonly data: object }>(
  commands: CommandRunner, caller: Caller, stream: string, type: StreamType<State, Event>, decide: (state: State) => Promise<Event[]>,
): Promise<boolean> {
  return commands.run(caller, async (attempt) => {
    const events = await decide(await attempt.load(stream, type));
    attempt.write(stream, events);
    return events.length > 0;
  });
}
