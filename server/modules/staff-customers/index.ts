import {
  customersEndSessions,
  customersGet,
  customersLedger,
  customersSearch,
  customersSetDepositBlocked,
  customersSetOwnDepositAddress,
  customersSetTradingProhibited,
  type CustomerDetail,
  type CustomerRow,
} from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { formatMoney } from '../../../src/shared/money/money';
import { inTransaction } from '../../db/after-commit';
import type { DatabaseHandle } from '../../db/database';
import type { AppUserTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { accountBalanceView } from '../account/account-balance';
import type { IdentityService } from '../identity/identity-service';
import type { DepositsService } from '../deposits';
import type { Ledger } from '../ledger/ledger';
import type { OptionsService } from '../options/options-service';
import type { StaffAudit, StaffRequest, StaffRoutes } from '../staff';
import type { TradingService } from '../trading/trading-service';
import type { Selectable } from 'kysely';

type UserRow = Selectable<AppUserTable>;

function customerRowOf(user: UserRow, verifiedStatus: number): CustomerRow {
  return {
    uid: user.uid,
    email: user.email,
    phone: user.phone,
    nick: user.nick,
    createdTime: user.created_at.getTime(),
    tradeProhibited: user.trade_prohibited,
    blocked: user.blocked,
    verifiedStatus,
  };
}

/**
 * The back office's customers: search, a customer's page (profile, both books' balances,
 * open orders and running options), their ledger lines (finance), prohibiting or allowing
 * their trading (compliance) and ending their sessions (support). Reads go through the
 * owning modules' services; each action and its one audit row share one transaction.
 */
export function registerStaffCustomers(deps: {
  database: DatabaseHandle;
  staffRoutes: StaffRoutes;
  audit: StaffAudit;
  identity: Pick<IdentityService, 'profile' | 'searchCustomers' | 'setTradeProhibited' | 'endAllSessionsIn'>;
  ledger: Pick<Ledger, 'tradingBalances' | 'linesOfOwner' | 'walletBalances'>;
  trading: Pick<TradingService, 'openOrders'>;
  options: Pick<OptionsService, 'running'>;
  deposits: Pick<DepositsService, 'blockReason' | 'setBlocked' | 'checkOwnAddress' | 'setOwnAddress'>;
  /** The full identity verification's status (the verification module's), as `user/info` answers it. */
  verifiedStatus: (uid: number) => Promise<number>;
}) {
  const { staffRoutes, audit, identity, ledger, trading, options, deposits } = deps;
  const db = deps.database.db;

  async function existingCustomer(uid: number): Promise<UserRow> {
    const user = await identity.profile(uid);
    if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND);
    return user;
  }

  /** A read of customers' personal or money data, audited before it is answered (one row per read, in the request). */
  const auditRead = (request: StaffRequest, entry: { action: string; uid: number | null; after: unknown }) =>
    audit.record(db, request.staff, { action: entry.action, targetType: 'customer', targetId: entry.uid === null ? null : String(entry.uid), uid: entry.uid, before: null, after: entry.after });

  staffRoutes.route(customersSearch, async (body, request) => {
    const { rows, total } = await identity.searchCustomers(body.query, body.page, body.limit);
    const statuses = await Promise.all(rows.map((user) => deps.verifiedStatus(user.uid)));
    // One match names its customer (the trail filters on it); a page of several lists who was shown.
    await auditRead(request, { action: 'customers.search', uid: rows.length === 1 ? (rows[0]?.uid ?? null) : null, after: { query: body.query, page: body.page, shown: rows.map((user) => user.uid) } });
    return { list: rows.map((user, index) => customerRowOf(user, statuses[index] ?? 0)), pages: Math.ceil(total / body.limit) };
  });

  staffRoutes.route(customersGet, async ({ uid }, request): Promise<CustomerDetail> => {
    const user = await existingCustomer(uid);
    const [real, demo, wallets, realOrders, demoOrders, realOptions, demoOptions, depositBlockReason, verifiedStatus] = await Promise.all([
      ledger.tradingBalances(uid, 'real'),
      ledger.tradingBalances(uid, 'demo'),
      ledger.walletBalances(uid),
      trading.openOrders(uid, 'real'),
      trading.openOrders(uid, 'demo'),
      options.running(uid, 'real'),
      options.running(uid, 'demo'),
      deposits.blockReason(uid),
      deps.verifiedStatus(uid),
    ]);
    await auditRead(request, { action: 'customers.get', uid, after: null });
    return {
      profile: {
        ...customerRowOf(user, verifiedStatus),
        registerType: user.register_type,
        locale: user.locale,
        inviteCode: user.invite_code,
        twoFactorEnabled: user.totp_enabled,
        tradeProhibitedReason: user.trade_prohibited_reason,
        depositBlocked: depositBlockReason !== null,
        depositBlockReason,
      },
      balances: { real: accountBalanceView(real), demo: accountBalanceView(demo) },
      // The real account's currency wallets (deposits, withdrawals and transfers move them), by currency code.
      wallets: [...wallets].sort(([a], [b]) => a.localeCompare(b)).map(([currency, balance]) => ({ currency, balance: formatMoney(balance) })),
      verification: { verifiedStatus },
      openOrders: [...realOrders.map((order) => ({ ...order, book: 'real' as const })), ...demoOrders.map((order) => ({ ...order, book: 'demo' as const }))],
      openOptions: [...realOptions.map((order) => ({ ...order, book: 'real' as const })), ...demoOptions.map((order) => ({ ...order, book: 'demo' as const }))],
    };
  });

  staffRoutes.route(customersLedger, async ({ uid, page, limit }, request) => {
    await existingCustomer(uid);
    const { lines, total } = await ledger.linesOfOwner(uid, page, limit);
    await auditRead(request, { action: 'customers.ledger', uid, after: { page } });
    return {
      list: lines.map((line) => ({
        journalId: line.journalId,
        journalKind: line.journalKind,
        book: line.book,
        accountKind: line.accountKind,
        amount: formatMoney(line.amount),
        time: line.at.getTime(),
        reference: line.reference,
      })),
      pages: Math.ceil(total / limit),
    };
  });

  staffRoutes.route(customersSetTradingProhibited, async ({ uid, prohibited, reason }, request) => {
    await inTransaction(db, async (trx) => {
      const change = await identity.setTradeProhibited(trx, uid, prohibited, reason);
      if (!change) throw new AppError(ErrorCode.USER_NOT_FOUND);
      await audit.record(trx, request.staff, {
        action: 'customers.setTradingProhibited',
        targetType: 'customer',
        targetId: String(uid),
        uid,
        before: change.before,
        after: change.after,
      });
    });
    return null;
  });

  staffRoutes.route(customersSetDepositBlocked, async ({ uid, blocked, reason }, request) => {
    await existingCustomer(uid);
    await inTransaction(db, async (trx) => {
      const change = await deposits.setBlocked(trx, uid, blocked, reason);
      await audit.record(trx, request.staff, { action: 'customers.setDepositBlocked', targetType: 'customer', targetId: String(uid), uid, ...change });
    });
    return null;
  });

  staffRoutes.route(customersSetOwnDepositAddress, async ({ uid, coinId, address, reason }, request) => {
    await existingCustomer(uid);
    const checked = await deposits.checkOwnAddress({ coinId, address });
    await inTransaction(db, async (trx) => {
      const change = await deposits.setOwnAddress(trx, uid, checked);
      await audit.record(trx, request.staff, {
        action: 'customers.setOwnDepositAddress',
        targetType: 'customer',
        targetId: String(uid),
        uid,
        before: change.before,
        after: { ...change.after, reason },
      });
    });
    return null;
  });

  staffRoutes.route(customersEndSessions, async ({ uid, reason }, request) => {
    await inTransaction(db, async (trx) => {
      const ended = await identity.endAllSessionsIn(trx, uid, reason);
      if (ended === null) throw new AppError(ErrorCode.USER_NOT_FOUND);
      await audit.record(trx, request.staff, {
        action: 'customers.endSessions',
        targetType: 'customer',
        targetId: String(uid),
        uid,
        before: { liveSessions: ended },
        after: { liveSessions: 0, reason },
      });
    });
    return null;
  });
}
