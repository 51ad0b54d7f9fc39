import { Injectable } from '@nestjs/common';
import {
  ActiveProvider, ProviderCommand, ProviderEvent, ProviderState, conflict, decideProvider, evolveProvider,
  initialProviderState, providerStream, ErrorCode,
} from '../../../domain/src/index.js';
import { Caller, metadataOf } from '../shared/caller.js';
import { StreamWriter } from '../shared/stream-writer.js';

/** The one path every single-provider command takes: load, gather facts, decide, append, retry. */
@Injectable()
export class ProviderCommandRunner {
  constructor(private readonly writer: StreamWriter) {}

  async run(uuid: string, caller: Caller, build: (state: ProviderState) => Promise<ProviderCommand>): Promise<ProviderState> {
    const stream = providerStream(uuid);
    try {
      const { outcome } = await this.writer.execute(async () => {
        const { state, revision } = await this.writer.load<ProviderState, ProviderEvent>(stream, evolveProvider, initialProviderState);
        const events = decideProvider(await build(state), state);
        const next = events.reduce(evolveProvider, state);
        const metadata = metadataOf(caller);
        return {
          appends: [{ stream, expectedRevision: revision, events: events.map((e) => ({ ...e, metadata })) }],
          outcome: next,
        };
      });
      return outcome;
    } catch (error) {
      throw translateReadModelConflict(error);
    }
  }
}

/** The read model's unique name is the last line of defence against two creations racing. */
function translateReadModelConflict(error: unknown): unknown {
  const e = error as { code?: string; constraint?: string };
  if (e.code === '23505' && e.constraint === 'rm_resource_providers_name') {
    return conflict('Conflicting resource provider name already exists.', ErrorCode.DUPLICATE_NAME);
  }
  return error;
}

export function asActive(state: ProviderState): ActiveProvider {
  if (state.status !== 'active') throw new Error('provider is not active after a successful write');
  return state;
}
