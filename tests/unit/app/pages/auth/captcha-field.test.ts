import { describe, expect, it } from 'vitest';
import { captchaSource } from '../../../../../src/app/pages/auth/captcha-field';

describe('captcha field', () => {
  it('shows only image data, and takes bare base64 as a PNG', () => {
    expect(captchaSource('data:image/svg+xml;base64,PHN2Zz4=')).toBe('data:image/svg+xml;base64,PHN2Zz4=');
    expect(captchaSource('iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(captchaSource('javascript:alert(1)')).toBeNull();
  });
});
