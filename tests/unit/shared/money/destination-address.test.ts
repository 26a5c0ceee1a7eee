import { describe, expect, it } from 'vitest';
import { addressFamilyOf, isValidDestinationAddress } from '../../../../src/shared/money/destination-address';

describe('destination addresses, checked per network', () => {
  it('names the family of a network as the configuration spells it', () => {
    expect(addressFamilyOf('TRC20')).toBe('tron');
    expect(addressFamilyOf('ERC-20')).toBe('evm');
    expect(addressFamilyOf('Bitcoin')).toBe('bitcoin');
    expect(addressFamilyOf('Solana')).toBe('other');
  });

  it('takes Tron addresses whose base58check holds and whose prefix is 0x41', () => {
    expect(isValidDestinationAddress('TRC20', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE')).toBe(true);
    // One character changed: the checksum fails.
    expect(isValidDestinationAddress('TRC20', 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSF')).toBe(false);
    // A Bitcoin address is base58check too, but not Tron's prefix.
    expect(isValidDestinationAddress('TRC20', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(false);
    expect(isValidDestinationAddress('TRC20', '0x71C7656EC7ab88b098defB751B7401B5f6d8976F')).toBe(false);
  });

  it('takes Ethereum-style addresses in one case, or mixed case when EIP-55 holds', () => {
    expect(isValidDestinationAddress('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(true);
    expect(isValidDestinationAddress('ERC20', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true);
    expect(isValidDestinationAddress('ERC20', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true);
    // One letter's case flipped: EIP-55 fails.
    expect(isValidDestinationAddress('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isValidDestinationAddress('ERC20', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toBe(false);
  });

  it('takes Bitcoin legacy, P2SH, bech32 (v0) and bech32m (v1) addresses, each with its checksum', () => {
    expect(isValidDestinationAddress('Bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(true);
    expect(isValidDestinationAddress('Bitcoin', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(true);
    expect(isValidDestinationAddress('Bitcoin', 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh')).toBe(true);
    expect(isValidDestinationAddress('Bitcoin', 'BC1QXY2KGDYGJRSQTZQ2N0YRF2493P83KKFJHX0WLH')).toBe(true);
    expect(isValidDestinationAddress('Bitcoin', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297')).toBe(true);
    expect(isValidDestinationAddress('Bitcoin', 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlg')).toBe(false);
    // Mixed case is never bech32; a testnet prefix is not this network's.
    expect(isValidDestinationAddress('Bitcoin', 'bc1Qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh')).toBe(false);
    expect(isValidDestinationAddress('Bitcoin', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBe(false);
    expect(isValidDestinationAddress('Bitcoin', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb')).toBe(false);
  });

  it('checks another network for its form only', () => {
    expect(isValidDestinationAddress('Solana', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBe(true);
    expect(isValidDestinationAddress('Solana', 'has a space')).toBe(false);
    expect(isValidDestinationAddress('Solana', 'short')).toBe(false);
  });
});
