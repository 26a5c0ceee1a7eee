import type { FastifyInstance, FastifyRequest } from 'fastify';
import { historyLimitMax, marketHistory, marketHistoryRange, marketStatus, marketThumb, productList } from '../../../src/shared/api/market';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';
import { defineRoute } from '../../http/define-route';
import type { MarketDataService } from './market-data-service';

function symbolParameter(request: FastifyRequest, market: MarketDataService): string {
  const { symbol } = request.params as { symbol?: string };
  if (!symbol || !market.knownSymbol(symbol)) throw new AppError(ErrorCode.PAIR_DOES_NOT_EXIST);
  return symbol;
}

export function registerMarketRoutes(app: FastifyInstance, market: MarketDataService) {
  defineRoute(app, productList, async () => ({ list: market.products() }));

  defineRoute(app, marketHistory, async (body) => {
    if (!market.knownSymbol(body.symbol)) throw new AppError(ErrorCode.PAIR_DOES_NOT_EXIST);
    return market.history(body.symbol, body.period, body.limit);
  });

  defineRoute(app, marketHistoryRange, async (body) => {
    if (!market.knownSymbol(body.symbol)) throw new AppError(ErrorCode.PAIR_DOES_NOT_EXIST);
    if (body.from > body.to) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT);
    return market.historyRange(body.symbol, body.period, body.from, body.to, historyLimitMax);
  });

  defineRoute(app, marketThumb, async (_body, request) => {
    const tick = market.latestTick(symbolParameter(request, market));
    if (!tick) throw new AppError(ErrorCode.DATA_NOT_FOUND);
    // An old price is still this process's last one, but never passed off as live.
    return { ...tick, stale: !market.isLive(tick.symbol) };
  });

  defineRoute(app, marketStatus, async (_body, request) => market.status(symbolParameter(request, market)));
}
