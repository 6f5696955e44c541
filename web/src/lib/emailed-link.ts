/** True when an address's fragment carries an emailed link's session or failure. */
export function carriesEmailedLink(hash: string): boolean {
  return /(?:^#|&)(?:access_token|error_code)=/.test(hash);
}
