/**
 * A banner the customer app may show: a path on the app's own origin ("/banners/spring.png"),
 * the only image source besides data: and blob: its content security policy allows
 * (img-src 'self'). Never a scheme (`javascript:`, `http:`), never another host (`//host`,
 * `/\host`, which browsers read as `//host`), no spaces, quotes or angle brackets. Staff
 * cannot store a banner the page would refuse to load, and the page drops any that
 * slipped in before this rule.
 */
export function safeBannerUrl(value: string): string | null {
  const trimmed = value.trim();
  return /^\/(?![/\\])[^\s"'<>`\\]*$/.test(trimmed) ? trimmed : null;
}
