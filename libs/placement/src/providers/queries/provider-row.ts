export interface ProviderRow {
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly parent_provider_uuid: string | null;
  readonly root_provider_uuid: string;
  readonly created_at: Date;
  readonly updated_at: Date;
}

export const PROVIDER_COLUMNS = 'p.uuid, p.name, p.generation, p.parent_provider_uuid, p.root_provider_uuid, p.created_at, p.updated_at';
