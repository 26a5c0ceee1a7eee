import { createStore, get, set } from 'idb-keyval';
import type { ContactType } from '../../shared/api/auth';
import type { TradeMode } from '../../shared/config/trade-mode';

/**
 * The user's local preferences, behind one small module. Stored in IndexedDB; read once
 * at start into memory so that views read them synchronously.
 */
export interface Preferences {
  language?: string;
  tradeMode?: TradeMode;
  colourScheme?: 'light' | 'dark';
  themeColour?: string;
  /** The chart's period, candle type and indicators (validated when read). */
  chart?: { period?: string; candleType?: string; indicators?: { main?: string[]; sub?: string[] } };
  /** The chart's drawings per symbol (tool and points; checked when read, `readStoredDrawings`). */
  chartDrawings?: Record<string, unknown>;
  /** "Remember account": the last contact type and what was typed (phone as typed, with its country). */
  rememberedAccount?: { type: ContactType; value: string; country?: string };
  /**
   * "Remember password": AES-GCM ciphertext and iv (base64) only; the key is a
   * non-extractable CryptoKey kept apart (`remembered-password.ts`). Never plain text.
   */
  rememberedPassword?: { iv: string; ciphertext: string };
  /** The country last chosen for a phone number (ISO 3166 code). */
  lastCountry?: string;
  /** Desktop windows show the phone layout in a centred column (height × 9 / 16 wide). */
  phoneView?: boolean;
  /** The desktop workspace's chart share of its column in percent, once the trader moved the separator (`board-split.ts`). */
  workspaceChartShare?: number;
  /** The symbols opened from search lately, the latest first (`withRecentSymbol`). */
  recentSymbols?: string[];
  /** One-click trading, turned on after its confirmation (`features/trading/one-click.tsx`). */
  oneClickTrading?: boolean;
  /** The lots one-click trading last used, per symbol. */
  oneClickLots?: Record<string, string>;
}

const store = createStore('tradeweb-preferences', 'preferences');
const key = 'preferences';
let current: Preferences = {};

export async function loadPreferences(): Promise<Preferences> {
  try {
    current = (await get<Preferences>(key, store)) ?? {};
  } catch {
    // Private modes may refuse IndexedDB; the app still runs with defaults.
    current = {};
  }
  return current;
}

export function preferences(): Preferences {
  return current;
}

export async function savePreferences(change: Partial<Preferences>): Promise<void> {
  current = { ...current, ...change };
  try {
    await set(key, current, store);
  } catch {
    // Not fatal: the choice holds for this visit.
  }
}
