import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { bech32, bech32m, createBase58check } from '@scure/base';

/**
 * Whether a crypto address can be paid on its network (issue 31): the format, and the
 * checksum where the network has one, so a mistyped address is refused before it is saved.
 * Bitcoin: base58check (P2PKH 0x00, P2SH 0x05) or bech32 (witness v0) / bech32m (v1+) with
 * the `bc` prefix; Tron (TRC-20): base58check with the 0x41 prefix; Ethereum-style networks
 * (ERC-20, BEP-20…): 0x and 40 hex digits, checked by EIP-55 when the case is mixed. Another
 * network is checked for its form only (printable, no spaces, 8–128 characters).
 */

export type AddressFamily = 'bitcoin' | 'tron' | 'evm' | 'other';

const familyByNetwork: Record<string, AddressFamily> = {
  BITCOIN: 'bitcoin',
  BTC: 'bitcoin',
  TRC20: 'tron',
  TRON: 'tron',
  TRX: 'tron',
  ERC20: 'evm',
  ETH: 'evm',
  ETHEREUM: 'evm',
  BEP20: 'evm',
  BSC: 'evm',
  POLYGON: 'evm',
  ARBITRUM: 'evm',
  OPTIMISM: 'evm',
};

/** The address family of a network's name as the wallet configuration spells it ("TRC20", "Bitcoin", "ERC-20"). */
export function addressFamilyOf(network: string): AddressFamily {
  return familyByNetwork[network.toUpperCase().replace(/[^A-Z0-9]/g, '')] ?? 'other';
}

const base58check = createBase58check(sha256);

function base58checkPayload(address: string): Uint8Array | null {
  try {
    return base58check.decode(address);
  } catch {
    return null;
  }
}

function isBitcoinSegwit(address: string): boolean {
  // Bech32 is one case throughout; the checksum is computed on the lower case.
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase();
  if (!lower.startsWith('bc1')) return false;
  for (const codec of [bech32, bech32m]) {
    let decoded: { prefix: string; words: number[] };
    try {
      decoded = codec.decode(lower as `${string}1${string}`, 90);
    } catch {
      continue;
    }
    const [version, ...programWords] = decoded.words;
    if (decoded.prefix !== 'bc' || version === undefined || version > 16) return false;
    // BIP-350: version 0 is bech32 with a 20- or 32-byte program, later versions bech32m with 2–40 bytes.
    if ((version === 0) !== (codec === bech32)) return false;
    let program: Uint8Array;
    try {
      program = codec.fromWords(programWords);
    } catch {
      return false;
    }
    return version === 0 ? program.length === 20 || program.length === 32 : program.length >= 2 && program.length <= 40;
  }
  return false;
}

function isBitcoinAddress(address: string): boolean {
  if (/^bc1/i.test(address)) return isBitcoinSegwit(address);
  const payload = base58checkPayload(address);
  return payload !== null && payload.length === 21 && (payload[0] === 0x00 || payload[0] === 0x05);
}

function isTronAddress(address: string): boolean {
  const payload = base58checkPayload(address);
  return payload !== null && payload.length === 21 && payload[0] === 0x41;
}

/** EIP-55: a hex digit is upper case exactly where the Keccak-256 of the lower-case address has a nibble of 8 or more. */
function isEvmAddress(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  const hash = bytesToHex(keccak_256(utf8ToBytes(hex.toLowerCase())));
  for (let index = 0; index < hex.length; index += 1) {
    const char = hex[index]!;
    if (!/[a-fA-F]/.test(char)) continue;
    const upper = Number.parseInt(hash[index]!, 16) >= 8;
    if ((char === char.toUpperCase()) !== upper) return false;
  }
  return true;
}

/** Whether `address` (trimmed) is payable on `network`. */
export function isValidDestinationAddress(network: string, address: string): boolean {
  switch (addressFamilyOf(network)) {
    case 'bitcoin':
      return isBitcoinAddress(address);
    case 'tron':
      return isTronAddress(address);
    case 'evm':
      return isEvmAddress(address);
    case 'other':
      return /^[\x21-\x7e]{8,128}$/.test(address);
  }
}
