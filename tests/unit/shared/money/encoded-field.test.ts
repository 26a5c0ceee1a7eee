import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeField, encodeField } from '../../../../src/shared/money/encoded-field';

/** A session's aesKey: 16 characters, whose UTF-8 bytes are an AES-128 key (API.md "encoded fields"). */
const aesKey = 'Q7w9Zk2mP4xR8tVb';

/** AES-ECB with PKCS7 padding, base64, as API.md names it, by Node's own cipher: what a brand's back end would do. */
function nodeEncode(plain: string, key: string): string {
  const cipher = crypto.createCipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]).toString('base64');
}

function nodeDecode(encoded: string, key: string): string {
  const decipher = crypto.createDecipheriv('aes-128-ecb', Buffer.from(key, 'utf8'), null);
  return Buffer.concat([decipher.update(Buffer.from(encoded, 'base64')), decipher.final()]).toString('utf8');
}

describe('the encoded fields (crypto-js)', () => {
  it('encode as AES-ECB/PKCS7 base64 under the session key, byte for byte what another implementation makes', () => {
    for (const plain of ['TXyzSavedCustomerAddress42', '6222 0212 3456 7890', 'José Müller 山田', 'exactly16bytes!!']) {
      expect(encodeField(plain, aesKey)).toBe(nodeEncode(plain, aesKey));
      expect(nodeDecode(encodeField(plain, aesKey), aesKey)).toBe(plain);
    }
  });

  it('decode what another implementation encoded, and refuse it under another key', () => {
    const encoded = nodeEncode('0x52908400098527886E0F7030069857D2E4169EE7', aesKey);
    expect(decodeField(encoded, aesKey)).toBe('0x52908400098527886E0F7030069857D2E4169EE7');
    expect(decodeField(encoded, 'AnotherSessionKy')).toBeNull();
  });

  it('leave an empty value empty', () => {
    expect(encodeField('', aesKey)).toBe('');
    expect(decodeField('', aesKey)).toBe('');
  });
});
