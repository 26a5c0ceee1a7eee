/**
 * Server-side feature switches (`getAllConfigStatusWeb` items), with the
 * specification's defaults. The reference server seeds its table from this list with the
 * brand's `seed.json` switches over it (brands/default turns demo trading and both trade
 * modes on: README "Brands"); the app reads the live values and falls back to these
 * defaults for a name it is not sent.
 */
export const switchDefaults = {
  Contract: false,
  OptionMock: false,
  VIRTUAL_CURRENCY_TRADE: false,
  PHONE_REGISTER: false,
  PHONE_REGISTER_SMS_VERIFICATION: true,
  hideRegisterInviteCode: false,
  sendRegisterCompleteMail: false,
  rememberPassword: true,
  NO_WALLET_WITHDRAW: false,
  BANK_CARD_WITHDRAW: false,
  MULTI_WALLET: false,
  twoTypeVerified: false,
  addVerifiedEmail: false,
  verifiedScreen: true,
  /** The brand requires full identity verification before a withdrawal (withdraw/status and submit answer 1067). */
  withdrawNeedsVerification: false,
  bankInfo: false,
  'user/myWallet': true,
  'user/juniorVerfiy': true,
  'user/loan': false,
  'user/standards': true,
  'user/privacy': true,
  'user/bankCard': true,
  'user/bindEmail': true,
  /** The customer-service page (the trading spec's screens behind flags); open to visitors too: the sign-in page links to it. */
  'user/service': true,
} as const satisfies Record<string, boolean>;

export type SwitchName = keyof typeof switchDefaults;

export type Switches = Record<SwitchName, boolean>;

export const switchNames = Object.keys(switchDefaults) as SwitchName[];

export function isSwitchName(name: string): name is SwitchName {
  return Object.hasOwn(switchDefaults, name);
}

/** Builds the full switch map from the server's items; unknown names are ignored. */
export function switchesFromItems(items: readonly { name: string; enable: boolean }[]): Switches {
  const switches: Switches = { ...switchDefaults };
  for (const item of items) {
    if (isSwitchName(item.name)) switches[item.name] = item.enable;
  }
  return switches;
}

/**
 * The call that answers the switches (its contract, `getAllConfigStatusWeb`, is in
 * api/anonymous.ts; the path is here as well so that the page's start, which has the
 * engine check the answer, loads no schema).
 */
export const switchesPath = '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb';

/** What the engine answers of the switches call: its items, or why they are not usable. */
export type SwitchesCheck = { ok: true; items: { name: string; enable: boolean }[] } | { ok: false; problem: string };
