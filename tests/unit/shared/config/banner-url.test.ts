import { describe, expect, it } from 'vitest';
import { safeBannerUrl } from '../../../../src/shared/config/banner-url';

describe('banner addresses', () => {
  it('accepts a path on the app origin', () => {
    expect(safeBannerUrl('/banners/banner-1.svg')).toBe('/banners/banner-1.svg');
    expect(safeBannerUrl(' /uploads/spring%20sale.png?v=2 ')).toBe('/uploads/spring%20sale.png?v=2');
  });

  it('refuses a scheme, another host, a relative path and markup characters', () => {
    for (const value of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'https://cdn.example.com/a.png', '//cdn.example.com/a.png', '/\\cdn.example.com/a.png', 'data:text/html,x', 'banners/a.png', '/a b.png', '/a".png', '/<x>.png', '']) {
      expect(safeBannerUrl(value), value).toBeNull();
    }
  });
});
