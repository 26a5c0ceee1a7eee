import { describe, expect, it } from 'vitest';
import { switchDefaults, switchesFromItems } from '../../../../src/shared/config/switches';

describe('feature switches', () => {
  it('starts from the specification defaults and takes the server values', () => {
    const switches = switchesFromItems([
      { name: 'Contract', enable: true },
      { name: 'NotASwitch', enable: true },
    ]);
    expect(switches.Contract).toBe(true);
    expect(switches.PHONE_REGISTER_SMS_VERIFICATION).toBe(true);
    expect(switches.VIRTUAL_CURRENCY_TRADE).toBe(false);
    expect(Object.keys(switches)).toEqual(Object.keys(switchDefaults));
  });
});
