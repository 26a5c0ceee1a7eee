import { describe, expect, it } from 'vitest';
import { OptionStatus } from '../../../../src/shared/options/option-rules';
import { OrderStatus } from '../../../../src/shared/trading/order-rules';
import { marketDetailTimes, optionShowsSettlementTime } from '../../../../src/shared/trading/order-detail-times';

describe("an order detail's times", () => {
  it('shows a market order its place time for statuses 2 and 3, its cover time for 3 alone (not when canceled)', () => {
    expect(marketDetailTimes(OrderStatus.pending)).toEqual({ placeTime: false, coverTime: false });
    expect(marketDetailTimes(OrderStatus.position)).toEqual({ placeTime: true, coverTime: false });
    expect(marketDetailTimes(OrderStatus.deal)).toEqual({ placeTime: true, coverTime: true });
    expect(marketDetailTimes(OrderStatus.canceled)).toEqual({ placeTime: false, coverTime: false });
  });

  it('shows an option its settlement time once settled (status 1) only', () => {
    expect(optionShowsSettlementTime(OptionStatus.running)).toBe(false);
    expect(optionShowsSettlementTime(OptionStatus.settled)).toBe(true);
  });
});
