import { useEffect, useState } from 'react';
import { withPathParameters } from '../../../shared/api/contract';
import { marketStatus, type Product } from '../../../shared/api/market';
import { nextOpeningAt, type MarketStatus, type TradingHours } from '../../../shared/market/market-hours';
import { useApp } from '../../app-context';
import { marketStatusAnswer, shownMarketStatus, statusRecheckDelayMs, type MarketStatusAnswer } from './market-status-answer';

/** The current time, re-read every 30 s (market status changes on the minute at most). */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const noHours: TradingHours = { marketStartTime: [], marketCloseTime: [] };

/**
 * The server's market status of a product: asked when its screen opens and again just
 * after each transition the shared hours predict; the shared hours stand in meanwhile.
 */
function useStatusAndClock(product: Product | undefined): { status: MarketStatus; now: number } {
  const { http } = useApp();
  const now = useMinuteClock();
  const [answer, setAnswer] = useState<MarketStatusAnswer | null>(null);
  const symbol = product?.productCode ?? '';
  const hours: TradingHours = product ?? noHours;
  // The hours as a key: the effect re-runs when they change, not when the product object is renewed.
  const hoursKey = `${hours.marketStartTime.join()}|${hours.marketCloseTime.join()}`;
  useEffect(() => {
    if (!symbol) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const ask = () => {
      const askedAt = Date.now();
      void http
        .call(withPathParameters(marketStatus, { symbol }), {}, { silent: true })
        .then((status) => {
          if (!cancelled) setAnswer(marketStatusAnswer(symbol, status, hours, askedAt));
        })
        // Unanswered, the shared hours' guess stands until the next transition.
        .catch(() => undefined);
      const delay = statusRecheckDelayMs(hours, askedAt);
      if (delay !== null) {
        timer = setTimeout(() => {
          if (!cancelled) ask();
        }, delay);
      }
    };
    ask();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `hours` is keyed by hoursKey
  }, [http, symbol, hoursKey]);
  return { status: product ? shownMarketStatus(symbol, product, answer, now) : 'closed', now };
}

/** The market status of a product as the server reports it (the shared hours until it answers). */
export function useMarketStatus(product: Product | undefined): MarketStatus {
  return useStatusAndClock(product).status;
}

/** The market status and, while not open, when the next session starts (null: none in its week). */
export function useMarketSchedule(product: Product): { status: MarketStatus; opensAt: number | null } {
  const { status, now } = useStatusAndClock(product);
  return { status, opensAt: status === 'open' ? null : nextOpeningAt(product, now) };
}
