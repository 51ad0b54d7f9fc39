/**
 * Database, KurrentDB and Keystone URLs reach messages, logs and terminals, which outlive any
 * password. Every printed URL goes through here.
 */

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** Query parameters that carry a secret: libpq's `password`, and the usual other spellings. */
const SECRET_PARAMETER = /([?&;](?:password|passwd|pass|pwd|secret|sslpassword|token)=)[^&;#\s]*/gi;

/**
 * `scheme://user:password@host…` as `scheme://user:***@host…`, and a secret query parameter's
 * value as `***`. The user information runs to the LAST `@`, because operators paste passwords
 * holding `@`, `/`, `:`, `?` or `#` unencoded; in the rare URL whose query holds an `@`, more than
 * the password is hidden, which is the better mistake.
 */
export function redactUrl(url: string): string {
  const scheme = SCHEME.exec(url)?.[0];
  let redacted = url;
  if (scheme) {
    const rest = url.slice(scheme.length);
    const at = rest.lastIndexOf('@');
    const colon = rest.indexOf(':');
    if (at >= 0 && colon >= 0 && colon < at) redacted = `${scheme}${rest.slice(0, colon)}:***${rest.slice(at)}`;
  }
  return redacted.replace(SECRET_PARAMETER, '$1***');
}

const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/\S+/g;

/**
 * Every URL in a message (an error's text, a stack) redacted. A URL ends at white space here,
 * so a password holding a space is the one this cannot find.
 */
export function redactUrlsIn(text: string): string {
  return text.includes('://') ? text.replace(URL_IN_TEXT, redactUrl) : text;
}
