/** keystone_authtoken's essentials (PLACEMENT_KEYSTONE_*): where Keystone is and who we are to it. */
export interface KeystoneSettings {
  /** As configured, without a trailing slash; with or without its `/v3`. */
  readonly authUrl: string;
  /** keystone_authtoken's www_authenticate_uri: the Keystone a 401 sends clients to; authUrl when unset. */
  readonly wwwAuthenticateUri?: string;
  readonly username: string;
  readonly password: string;
  readonly projectName: string;
  readonly userDomainName: string;
  readonly projectDomainName: string;
  /** user_domain_id / project_domain_id (`default` in most deployments): used instead of the name when given without one. */
  readonly userDomainId?: string;
  readonly projectDomainId?: string;
  /** How many validated tokens are remembered; 0 asks Keystone on every request. */
  readonly cacheSize: number;
  /** How long a validation is trusted before the token is checked again: a revoked token works at most this long. */
  readonly cacheTimeSeconds: number;
}

export const DEFAULT_TOKEN_CACHE_SIZE = 10_000;
/** keystonemiddleware's token_cache_time. */
export const DEFAULT_TOKEN_CACHE_TIME_SECONDS = 300;

/** `http://keystone:5000`, `.../v3` and `.../identity/v3/` all name the same token API. */
export function tokensEndpoint(authUrl: string): string {
  const base = authUrl.replace(/\/+$/, '').replace(/\/v3$/, '');
  return `${base}/v3/auth/tokens`;
}

/** keystoneauth's rule: a domain given by id only is named by id, else by name. */
const domainOf = (name: string, id: string | undefined) => (id ? { id } : { name });

/** The body of keystoneauth's v3 Password plugin, scoped to the service's project. */
export function passwordAuthBody(settings: KeystoneSettings): unknown {
  return {
    auth: {
      identity: {
        methods: ['password'],
        password: {
          user: { name: settings.username, domain: domainOf(settings.userDomainName, settings.userDomainId), password: settings.password },
        },
      },
      scope: { project: { name: settings.projectName, domain: domainOf(settings.projectDomainName, settings.projectDomainId) } },
    },
  };
}
