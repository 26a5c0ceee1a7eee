import type { ProductTypeName } from '../../../src/shared/api/market';

/**
 * The seeded instruments: what the product list shows, what trading needs (contract
 * size, spread, fee and overnight rates) and how the simulator moves each one
 * (starting level, yearly volatility, ticks per second). Times are seconds after
 * midnight UTC in US standard time, per weekday from Sunday (see market-hours.ts).
 */
export interface Instrument {
  code: string;
  name: string;
  type: ProductTypeName;
  precision: number;
  /** Price step that a spread is counted in (0.0001 for most forex, 0.01 for JPY pairs). */
  pipSize: string;
  spreadPips: number;
  leverage: number;
  contractSize: string;
  minLots: string;
  maxLots: string;
  feeRate: string;
  overnightRate: string;
  hours: { start: number[]; close: number[] };
  model: { startPrice: number; annualVolatility: number; ticksPerSecond: number; tickVolume: number };
  /** The product's icon, a path on the site (the brand's public/). */
  icon: string;
  /** false: no history is made at first start (load-test symbols). */
  backfill?: false;
}

const h = (hours: number, minutes = 0) => hours * 3600 + minutes * 60;
const allDay = 86399;
const closedDay = 0;

/** Sunday 22:00 to Friday 22:00 UTC, round the clock in between. */
const forexHours = { start: [h(22), 0, 0, 0, 0, 0, closedDay], close: [allDay, allDay, allDay, allDay, allDay, h(22), closedDay] };
/** Sunday 23:00 to Friday 22:00 UTC (metals, energy, US and Japanese index futures). */
const futuresHours = { start: [h(23), 0, 0, 0, 0, 0, closedDay], close: [allDay, allDay, allDay, allDay, allDay, h(22), closedDay] };
const cryptoHours = { start: [0, 0, 0, 0, 0, 0, 0], close: [allDay, allDay, allDay, allDay, allDay, allDay, allDay] };
const weekdays = (start: number, close: number) => ({
  start: [closedDay, start, start, start, start, start, closedDay],
  close: [closedDay, close, close, close, close, close, closedDay],
});
/** New York cash session 09:30–16:00 (14:30–21:00 UTC in standard time). */
const usStockHours = weekdays(h(14, 30), h(21));

function forex(code: string, name: string, startPrice: number, precision = 5, pipSize = '0.0001', spreadPips = 1.2): Instrument {
  return {
    code, name, icon: `/logos/${code}.svg`, type: 'Forex', precision, pipSize, spreadPips, leverage: 100, contractSize: '100000',
    minLots: '0.01', maxLots: '50', feeRate: '0.00002', overnightRate: '0.00008', hours: forexHours,
    model: { startPrice, annualVolatility: 0.08, ticksPerSecond: 4, tickVolume: 3 },
  };
}

function commodity(code: string, name: string, startPrice: number, precision: number, contractSize: string, volatility: number, spreadPips: number): Instrument {
  return {
    code, name, icon: `/logos/${code}.svg`, type: 'Commodities', precision, pipSize: (10 ** -precision).toFixed(precision), spreadPips, leverage: 100,
    contractSize, minLots: '0.01', maxLots: '20', feeRate: '0.00005', overnightRate: '0.0001', hours: futuresHours,
    model: { startPrice, annualVolatility: volatility, ticksPerSecond: 3, tickVolume: 5 },
  };
}

function index(code: string, name: string, startPrice: number, hours: Instrument['hours'], precision = 1): Instrument {
  return {
    code, name, icon: `/logos/${code}.svg`, type: 'Indices', precision, pipSize: (10 ** -precision).toFixed(precision), spreadPips: 10, leverage: 50,
    contractSize: '1', minLots: '0.1', maxLots: '100', feeRate: '0.00005', overnightRate: '0.0001', hours,
    model: { startPrice, annualVolatility: 0.16, ticksPerSecond: 3, tickVolume: 2 },
  };
}

function crypto(code: string, name: string, startPrice: number, precision: number, volatility = 0.6): Instrument {
  return {
    code, name, icon: `/logos/${code}.svg`, type: 'Cryptos', precision, pipSize: (10 ** -precision).toFixed(precision), spreadPips: 20, leverage: 20,
    contractSize: '1', minLots: '0.01', maxLots: '100', feeRate: '0.0005', overnightRate: '0.0003', hours: cryptoHours,
    model: { startPrice, annualVolatility: volatility, ticksPerSecond: 5, tickVolume: 8 },
  };
}

function stock(code: string, name: string, startPrice: number, volatility = 0.3): Instrument {
  return {
    code, name, icon: `/logos/${code}.svg`, type: 'US stocks', precision: 2, pipSize: '0.01', spreadPips: 3, leverage: 10, contractSize: '1',
    minLots: '1', maxLots: '1000', feeRate: '0.0002', overnightRate: '0.0002', hours: usStockHours,
    model: { startPrice, annualVolatility: volatility, ticksPerSecond: 2, tickVolume: 50 },
  };
}

export const instruments: readonly Instrument[] = [
  forex('EURUSD', 'EUR/USD', 1.085),
  forex('GBPUSD', 'GBP/USD', 1.27),
  forex('USDJPY', 'USD/JPY', 150.2, 3, '0.01'),
  forex('AUDUSD', 'AUD/USD', 0.655),
  forex('USDCAD', 'USD/CAD', 1.36),
  forex('USDCHF', 'USD/CHF', 0.88),
  forex('NZDUSD', 'NZD/USD', 0.61),
  forex('EURGBP', 'EUR/GBP', 0.855),
  forex('EURJPY', 'EUR/JPY', 163.0, 3, '0.01', 1.8),
  forex('USDHKD', 'USD/HKD', 7.81, 4, '0.0001', 3),
  forex('GBPAUD', 'GBP/AUD', 1.94, 5, '0.0001', 2.2),
  commodity('XAUUSD', 'Gold', 2350, 2, '100', 0.15, 30),
  commodity('XAGUSD', 'Silver', 28.5, 3, '5000', 0.25, 25),
  commodity('USOIL', 'WTI Crude Oil', 78.5, 2, '1000', 0.35, 4),
  commodity('UKOIL', 'Brent Crude Oil', 82.4, 2, '1000', 0.33, 4),
  commodity('NGAS', 'Natural Gas', 2.65, 3, '10000', 0.6, 5),
  commodity('COPPER', 'Copper', 4.35, 4, '25000', 0.22, 20),
  index('US30', 'Dow Jones 30', 39000, futuresHours),
  index('US500', 'S&P 500', 5200, futuresHours),
  index('NAS100', 'Nasdaq 100', 18200, futuresHours),
  index('GER40', 'Germany 40', 18300, weekdays(h(7), h(21))),
  index('UK100', 'UK 100', 8100, weekdays(h(8), h(21))),
  index('JP225', 'Japan 225', 38500, futuresHours, 0),
  index('HK50', 'Hong Kong 50', 17500, weekdays(h(1, 15), h(8, 30)), 0),
  crypto('BTCUSDT', 'Bitcoin', 67000, 2),
  crypto('ETHUSDT', 'Ethereum', 3500, 2, 0.7),
  crypto('SOLUSDT', 'Solana', 150, 3, 0.9),
  crypto('XRPUSDT', 'XRP', 0.52, 4, 0.8),
  crypto('BNBUSDT', 'BNB', 580, 2, 0.6),
  crypto('DOGEUSDT', 'Dogecoin', 0.15, 5, 1.0),
  crypto('ADAUSDT', 'Cardano', 0.45, 4, 0.85),
  crypto('LTCUSDT', 'Litecoin', 85, 2, 0.7),
  stock('AAPL', 'Apple', 190),
  stock('MSFT', 'Microsoft', 420),
  stock('NVDA', 'NVIDIA', 900, 0.5),
  stock('AMZN', 'Amazon', 180),
  stock('TSLA', 'Tesla', 175, 0.6),
  stock('GOOGL', 'Alphabet', 170),
  stock('META', 'Meta Platforms', 480, 0.4),
  stock('NFLX', 'Netflix', 620, 0.4),
];

/**
 * Extra symbols for load tests and benches: round-the-clock, sharing a total tick rate,
 * without backfilled history (hundreds of symbols would take minutes to backfill).
 */
export function loadTestInstruments(count: number, totalTicksPerSecond: number): Instrument[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(3, '0');
    return {
      ...crypto(`LOAD${number}USDT`, `Load ${number}`, 100 + index, 2, 0.8),
      model: { startPrice: 100 + index, annualVolatility: 0.8, ticksPerSecond: totalTicksPerSecond / count, tickVolume: 3 },
      backfill: false as const,
    };
  });
}

/**
 * The brand's symbols (its catalogue.json, checked at start by brand-folder.ts) as instruments:
 * the house's terms and price model for each, the brand's name and icon.
 */
export function brandInstruments(catalogue: readonly { code: string; name: string; icon: string }[]): Instrument[] {
  const byCode = new Map(instruments.map((instrument) => [instrument.code, instrument]));
  return catalogue.map((symbol) => {
    const instrument = byCode.get(symbol.code);
    if (!instrument) throw new RangeError(`no instrument ${symbol.code}`);
    return { ...instrument, name: symbol.name, icon: symbol.icon };
  });
}
