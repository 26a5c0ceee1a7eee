import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../shared/api/market';
import { updateOrder, updateOrderMock, type TradeOrder } from '../../../shared/api/trading';
import { isDemoSession } from '../../../shared/protocol/engine';
import { checkLineDrop, optionLinesOf, optionStanding, tradeLinesOf, type ChartLine } from '../../../shared/trading/chart-lines';
import { Direction, holdCountdownText } from '../../../shared/trading/order-rules';
import { useApp } from '../../app-context';
import { confirmDialog } from '../../components/confirm';
import { showToast } from '../../components/toasts';
import { optionsSignal, positionsSignal, priceSignal, sessionSignal } from '../../engine/signals';
import { themeColourSignal } from '../../theme/theme-choice';
import { useBrandFormat } from '../../format/use-brand-format';
import type { ColourScheme } from '../../theme/theme';
import type { DrawnLine, DrawnMarker } from './kline-chart';

function cssColour(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Where a dropped line waits for the server's feed: its new price while the order still has the old one. */
type Moved = Record<string, { from: string; to: string }>;

const levelOf = (order: TradeOrder, line: ChartLine): string | null =>
  line.kind === 'stopLoss' ? order.stopPrice : line.kind === 'takeProfit' ? order.takeProfitPrice : line.kind === 'pending' ? order.limitPrice : order.openingPrice;

/**
 * The chart's lines of what the trader holds on `product` (read from the engine's live
 * positions, pending orders and running options, so they follow every push), and what a
 * drop of one does: the form's rules, then the form's confirmation, then the form's modify call.
 */
export function useChartLines(product: Product, scheme: ColourScheme) {
  const { t } = useTranslation();
  const { http } = useApp();
  const format = useBrandFormat();
  const symbol = product.productCode;
  const decimals = product.pricePrecision;
  const positions = positionsSignal.value;
  const running = optionsSignal.value.running;
  const row = priceSignal(symbol).value;
  const [moved, setMoved] = useState<Moved>({});

  const orders = useMemo(() => [...(positions.holt?.orderList ?? []), ...(positions.pending?.orderList ?? [])], [positions]);
  const model = useMemo(() => tradeLinesOf(symbol, orders), [symbol, orders]);

  const themeColour = themeColourSignal.value;
  const colours = useMemo(() => {
    const tone = (name: string, fallback: string) => ({ line: cssColour(`--${name}`, fallback), label: cssColour(`--${name}-fill`, fallback) });
    // Read again when the scheme or the theme colour changes (both set these properties).
    void [scheme, themeColour];
    return { up: tone('up', '#16a34a'), down: tone('down', '#dc2626'), accent: tone('accent', '#2563eb'), even: { line: '#6b7280', label: '#4b5563' } };
  }, [scheme, themeColour]);

  const lines = useMemo<DrawnLine[]>(() => {
    const side = (direction: Direction) => t(direction === Direction.buy ? 'market.buy' : 'market.sell');
    const drawn = model.map((line): DrawnLine => {
      const order = orders.find((each) => each.uid === line.orderUid);
      const waiting = moved[line.id];
      const price = waiting && order && levelOf(order, line) === waiting.from ? waiting.to : line.price;
      const shown = format.price(price, decimals);
      const volume = line.volume;
      const label =
        line.kind === 'entry'
          ? t('chart.line_entry', { side: side(line.direction), volume, price: shown, profit: line.profitLoss === null ? '—' : signed(format.amount(line.profitLoss)) })
          : line.kind === 'pending'
            ? t('chart.line_pending', { side: side(line.direction), volume, price: shown })
            : t(line.kind === 'stopLoss' ? 'chart.line_stop_loss' : 'chart.line_take_profit', { price: shown });
      const tone = line.kind === 'entry' ? (line.direction === Direction.buy ? colours.up : colours.down) : line.kind === 'stopLoss' ? colours.down : line.kind === 'takeProfit' ? colours.up : colours.accent;
      return { id: line.id, kind: line.kind, price, draggable: line.draggable, look: { label, colour: tone.line, labelColour: tone.label, dashed: line.kind !== 'entry', labelAt: 'on' } };
    });
    for (const option of optionLinesOf(symbol, running.map((each) => each.order))) {
      const run = running.find((each) => each.order.uid === option.orderUid);
      if (!run) continue;
      const standing = optionStanding(run.order, row?.[1] ?? null);
      const label = t('chart.line_option', {
        side: t(option.direction === Direction.buy ? 'chart.option_up' : 'chart.option_down'),
        amount: format.amount(option.volume),
        price: format.price(option.price, decimals),
        standing: standing === null ? '—' : t(`chart.option_${standing}`),
        left: holdCountdownText(run.remainingMs),
      });
      const tone = standing === 'winning' ? colours.up : standing === 'losing' ? colours.down : colours.even;
      drawn.push({ id: option.id, kind: standing === null ? 'optionStart' : `optionStart ${standing}`, price: option.price, draggable: false, look: { label, colour: tone.line, labelColour: tone.label, dashed: true, labelAt: 'above' } });
    }
    return drawn;
  }, [model, orders, moved, running, row, symbol, decimals, format, colours, t]);

  const markers = useMemo<DrawnMarker[]>(
    () =>
      running
        .filter((each) => each.order.tradePair === symbol && each.order.status === 0)
        .map((each) => ({
          id: `${each.order.uid}:optionEnd`,
          timeMs: each.order.endTime,
          look: { label: t('chart.line_option_end', { time: format.time(each.order.endTime).slice(11) }), colour: colours.accent.line, labelColour: colours.accent.label, dashed: true, labelAt: 'on' },
        })),
    [running, symbol, format, colours, t],
  );

  const onLineDrop = useCallback(
    async (id: string, chartValue: number | undefined) => {
      // The orders as they are at the drop (the feed may have moved on since the last render).
      const now = positionsSignal.peek();
      const nowOrders = [...(now.holt?.orderList ?? []), ...(now.pending?.orderList ?? [])];
      const line = tradeLinesOf(symbol, nowOrders).find((each) => each.id === id);
      const order = line && nowOrders.find((each) => each.uid === line.orderUid);
      if (!line || !order) return;
      const quote = priceSignal(symbol).peek();
      const drop = checkLineDrop(line, order, chartValue, quote ? { bid: quote[2], ask: quote[3] } : null, decimals);
      if (!drop.ok) {
        if ('unchanged' in drop) return;
        showToast('error', t(drop.messageKey, drop.params ?? {}));
        return;
      }
      const from = levelOf(order, line) ?? '';
      const what = line.kind === 'stopLoss' ? 'chart.move_stop_loss' : line.kind === 'takeProfit' ? 'chart.move_take_profit' : 'chart.move_pending';
      const confirmed = await confirmDialog({
        title: `${order.productName} · ${t('position.edit_title')}`,
        message: t(what, { from: format.price(from, decimals), to: format.price(drop.price, decimals) }),
        confirmLabel: t('position.save'),
      });
      if (!confirmed) return;
      try {
        await http.call(isDemoSession(sessionSignal.peek()) ? updateOrderMock : updateOrder, drop.body);
        setMoved((previous) => ({ ...previous, [id]: { from, to: drop.price } }));
        showToast('success', t('position.updated'));
      } catch {
        // The request client has told the user why; the line goes back.
      }
    },
    [symbol, decimals, http, format, t],
  );

  return { lines, markers, onLineDrop };
}

function signed(amount: string): string {
  return amount.startsWith('-') ? amount : `+${amount}`;
}
