/**
 * kurrentdb://host:2113?tls=false (one node), kurrentdb+discover://… (a cluster by gossip), and
 * the client's other accepted schemes. Kept apart from the client so configuration can check a
 * URL without loading the client and its native module.
 */
export const KURRENTDB_URL_PATTERN = /^(kurrentdb|kurrent|kdb|esdb)(\+discover)?:\/\/\S+$/;
