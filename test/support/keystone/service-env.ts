/** Who the service authenticates as: a user of a Keystone, in a project. */
export interface ServiceUser {
  readonly name: string;
  readonly password: string;
  readonly project: string;
}

/** The settings that make the service authenticate against the Keystone at `url` as `user`. */
export function keystoneServiceEnv(url: string, user: ServiceUser): Record<string, string> {
  return {
    PLACEMENT_AUTH_STRATEGY: 'keystone',
    PLACEMENT_KEYSTONE_AUTH_URL: `${url}/v3`,
    PLACEMENT_KEYSTONE_USERNAME: user.name,
    PLACEMENT_KEYSTONE_PASSWORD: user.password,
    PLACEMENT_KEYSTONE_PROJECT_NAME: user.project,
  };
}
