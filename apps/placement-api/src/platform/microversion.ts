/** Microversions are data: one entry per version, a one-line note each. */
export const VERSIONS: readonly string[] = [
  '1.0',  // initial API
  '1.1',  // provider aggregates
  '1.2',  // custom resource classes
  '1.3',  // member_of on GET /resource_providers
  '1.4',  // resources filter on GET /resource_providers
  '1.5',  // DELETE all inventories
  '1.6',  // traits
  '1.7',  // PUT /resource_classes/{name} creates without a body
  '1.8',  // project_id and user_id required on PUT /allocations
  '1.9',  // GET /usages
  '1.10', // GET /allocation_candidates
  '1.11', // allocations link on providers
  '1.12', // dict form of PUT /allocations
  '1.13', // POST /allocations
  '1.14', // nested providers: parent and root
  '1.15', // Last-Modified and Cache-Control
  '1.16', // limit on allocation candidates
  '1.17', // required traits on allocation candidates
  '1.18', // required traits on GET /resource_providers
  '1.19', // aggregates with generation
  '1.20', // POST /resource_providers returns the provider
  '1.21', // member_of on allocation candidates
  '1.22', // forbidden traits
  '1.23', // error codes
  '1.24', // several member_of
  '1.25', // granular request groups
  '1.26', // reserved may equal total
  '1.27', // every class in provider summaries
  '1.28', // consumer generations
  '1.29', // nested providers in allocation candidates
  '1.30', // POST /reshaper
  '1.31', // in_tree on allocation candidates
  '1.32', // forbidden aggregates
  '1.33', // any suffix for request groups
  '1.34', // mappings in allocation requests
  '1.35', // root_required
  '1.36', // same_subtree and resourceless groups
  '1.37', // re-parenting; consumer_type off PUT /allocations
  '1.38', // consumer types
  '1.39', // any-of traits (in:)
];

export class Version {
  constructor(readonly major: number, readonly minor: number) {}

  static parse(text: string): Version {
    const [major, minor] = text.split('.').map(Number);
    return new Version(major, minor);
  }

  compare(other: Version): number {
    return this.major !== other.major ? this.major - other.major : this.minor - other.minor;
  }

  /** True when min <= this <= max (either bound optional), as upstream's `matches`. */
  matches(min?: string, max?: string): boolean {
    if (min && this.compare(bound(min)) < 0) return false;
    if (max && this.compare(bound(max)) > 0) return false;
    return true;
  }

  toString(): string {
    return `${this.major}.${this.minor}`;
  }
}

/** The bounds routes and parameters name, parsed once each: every request asks several. */
const BOUNDS = new Map<string, Version>();
function bound(text: string): Version {
  let version = BOUNDS.get(text);
  if (!version) BOUNDS.set(text, (version = Version.parse(text)));
  return version;
}

export const MIN_VERSION = Version.parse(VERSIONS[0]);
export const MAX_VERSION = Version.parse(VERSIONS[VERSIONS.length - 1]);
const SERVICE_TYPE = 'placement';

export type VersionProblem = { status: 400 | 406; detail: string };

/** Headers answered: clients send a handful, so the cache is cleared rather than ordered when it fills. */
const NEGOTIATED_KEPT = 64;
const negotiated = new Map<string, Version | VersionProblem>();

/** The version a request asks for, from `OpenStack-API-Version: placement X.Y`, or the problem with it. */
export function negotiate(header: string | undefined): Version | VersionProblem {
  if (header === undefined) return MIN_VERSION;
  let answer = negotiated.get(header);
  if (answer === undefined) {
    if (negotiated.size >= NEGOTIATED_KEPT) negotiated.clear();
    negotiated.set(header, (answer = negotiateHeader(header)));
  }
  return answer;
}

function negotiateHeader(header: string): Version | VersionProblem {
  const wanted = header
    .split(',')
    .map((part) => part.trim().split(/\s+/))
    .find(([service]) => service?.toLowerCase() === SERVICE_TYPE)?.[1];
  if (wanted === undefined) return MIN_VERSION;
  if (wanted === 'latest') return MAX_VERSION;
  if (!/^\d+\.\d+$/.test(wanted)) {
    return { status: 400, detail: `Invalid microversion: invalid version string: ${wanted}` };
  }
  const version = Version.parse(wanted);
  if (version.compare(MIN_VERSION) < 0 || version.compare(MAX_VERSION) > 0) {
    return { status: 406, detail: `Invalid microversion: Unacceptable version header: ${wanted}` };
  }
  return version;
}
