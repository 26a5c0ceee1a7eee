import { formatAmount } from '../../shared/format/amount';
import { languages } from '../../shared/i18n/languages';

/** How a review fact's value reads: as sent, as an amount, as a USD amount, or as a word. */
type FactShape = 'text' | 'amount' | 'usd' | 'language' | 'channel';

/**
 * The facts the server's review submissions carry (deposits, withdrawals, loans, repayments,
 * identity checks, and `canceled` when a customer withdrew an item), each with its label's key
 * under `staff.facts.*`. Identity checks name theirs in English words.
 */
const knownFacts: Readonly<Record<string, { label: string; shape: FactShape }>> = {
  currency: { label: 'currency', shape: 'text' },
  network: { label: 'network', shape: 'text' },
  channel: { label: 'channel', shape: 'channel' },
  amount: { label: 'amount', shape: 'amount' },
  fee: { label: 'fee', shape: 'amount' },
  practical: { label: 'practical', shape: 'amount' },
  amountUsd: { label: 'amountUsd', shape: 'usd' },
  last24hUsd: { label: 'last24hUsd', shape: 'usd' },
  paidTo: { label: 'paidTo', shape: 'text' },
  destination: { label: 'destination', shape: 'text' },
  locale: { label: 'locale', shape: 'language' },
  days: { label: 'days', shape: 'text' },
  guarantor: { label: 'guarantor', shape: 'text' },
  remark: { label: 'remark', shape: 'text' },
  loan: { label: 'loan', shape: 'text' },
  owedBefore: { label: 'owedBefore', shape: 'amount' },
  owedAfter: { label: 'owedAfter', shape: 'amount' },
  canceled: { label: 'canceled', shape: 'text' },
  'Real name': { label: 'realName', shape: 'text' },
  'Document type': { label: 'documentType', shape: 'text' },
  'Document number': { label: 'documentNumber', shape: 'text' },
  'E-mail': { label: 'email', shape: 'text' },
  Language: { label: 'locale', shape: 'language' },
  'Earlier submission': { label: 'earlierSubmission', shape: 'text' },
};

/** A withdrawal's channel as the server words it, and its label's key. */
const channels: Readonly<Record<string, string>> = { 'crypto address': 'crypto', 'bank card': 'bank' };

export interface ShownFact {
  /** The fact as the server names it (a key for React, and the label of a fact this console does not know). */
  field: string;
  /** `staff.facts.<name>`, or null for a fact this console does not know. */
  labelKey: string | null;
  /** The value as text, or null when `valueKey` names its words. */
  value: string | null;
  valueKey: string | null;
}

/** An amount with the brand's grouping, at the decimals it was sent with (a coin's eight stay eight). */
export function amountText(value: string, grouping: boolean): string {
  const decimals = /^-?\d+\.(\d+)$/.exec(value.trim())?.[1]?.length ?? 0;
  return formatAmount(value.trim(), { grouping, decimals });
}

function valueOf(value: string, shape: FactShape, grouping: boolean): Pick<ShownFact, 'value' | 'valueKey'> {
  switch (shape) {
    case 'amount':
      return { value: amountText(value, grouping), valueKey: null };
    case 'usd':
      return { value: `${amountText(value, grouping)} USD`, valueKey: null };
    case 'language':
      return { value: languages.find((language) => language.code === value)?.name ?? value, valueKey: null };
    case 'channel': {
      const channel = channels[value];
      return channel ? { value: null, valueKey: `staff.facts.channels.${channel}` } : { value, valueKey: null };
    }
    case 'text':
      return { value, valueKey: null };
  }
}

/** A review item's facts as labelled, formatted rows, in the order the server sent them. */
export function describeFacts(facts: Readonly<Record<string, string>>, options: { grouping: boolean }): ShownFact[] {
  return Object.entries(facts).map(([field, value]) => {
    const known = knownFacts[field];
    if (!known) return { field, labelKey: null, value, valueKey: null };
    return { field, labelKey: `staff.facts.${known.label}`, ...valueOf(value, known.shape, options.grouping) };
  });
}

/** The facts as (label, value) texts in the console's language: what the item page and the queue show. */
export function factRows(facts: Readonly<Record<string, string>>, options: { grouping: boolean; t: (key: string) => string }): Array<readonly [string, string]> {
  return describeFacts(facts, options).map((fact) => [fact.labelKey ? options.t(fact.labelKey) : fact.field, fact.valueKey ? options.t(fact.valueKey) : (fact.value ?? '')] as const);
}
