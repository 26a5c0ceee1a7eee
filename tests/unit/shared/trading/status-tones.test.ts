import { describe, expect, it } from 'vitest';
import { contrastRatio, schemeSurfaces, textContrast, type SchemeName } from '../../../../src/shared/theme/contrast';
import { OptionStatus } from '../../../../src/shared/options/option-rules';
import { OrderStatus } from '../../../../src/shared/trading/order-rules';
import { optionStatusTone, statusColours, statusTones, tradeStatusTone } from '../../../../src/shared/trading/status-tones';

describe('status colours', () => {
  it('gives a market trade the specification’s colour for its position status: 1 grey, 2 yellow, 3 blue, 4 red', () => {
    expect(tradeStatusTone(OrderStatus.pending)).toBe('grey');
    expect(tradeStatusTone(OrderStatus.position)).toBe('yellow');
    expect(tradeStatusTone(OrderStatus.deal)).toBe('blue');
    expect(tradeStatusTone(OrderStatus.canceled)).toBe('red');
    expect(tradeStatusTone(9)).toBe('grey');
  });

  it('gives an option yellow while it runs and blue once settled', () => {
    expect(optionStatusTone(OptionStatus.running)).toBe('yellow');
    expect(optionStatusTone(OptionStatus.settled)).toBe('blue');
  });

  it.each(['light', 'dark'] as SchemeName[])('reads every status colour at 4.5:1 on every %s surface, and keeps the four apart', (scheme) => {
    const colours = statusColours(scheme);
    for (const tone of statusTones) {
      for (const surface of Object.values(schemeSurfaces[scheme])) {
        expect(contrastRatio(colours[tone].text, surface)).toBeGreaterThanOrEqual(textContrast);
      }
    }
    expect(new Set(statusTones.map((tone) => colours[tone].text)).size).toBe(statusTones.length);
  });
});
