import { sql, type Kysely } from 'kysely';
import { formatMoney, money } from '../../../src/shared/money/money';
import { OptionStatus } from '../../../src/shared/api/options';
import { OrderStatus, PriceType } from '../../../src/shared/trading/order-rules';
import type { Database } from '../../db/schema';
import { baseCurrency, HouseAccountKind, JournalKeyPrefix, JournalKind, UserAccountKind, walletTransferJournalKinds } from './ledger-kinds';

/** Numeric text as the app writes amounts ("108.51200000" → "108.512"). */
const amount = (text: string) => formatMoney(money(text));

/** Why an order or option ended without its journal (the demo reset ends them without moving money). */
const demoReset = 'demo-reset';
const { pending, position, deal, canceled } = OrderStatus;
const { running, settled } = OptionStatus;
const { margin, optionEscrow, cash } = UserAccountKind;
const key = JournalKeyPrefix;

/**
 * The ledger against the books it pays for (behind `npm run ledger:check`, beside the
 * ledger's own audit): balanced journals are not enough when the money sits in the wrong
 * place. Each finding is one line; none means the books and the ledger agree:
 * - each user's margin account holds exactly the margin of its open orders (pending and
 *   positions), and each option escrow exactly the amounts of its running options;
 * - every order and option has the journals its life implies (opened, filled, closed,
 *   canceled, settled); only the demo reset ends them without one, by design; a close
 *   journal pays the user exactly the order's margin and result, and no overnight fee is
 *   charged after a close;
 * - the house's accounts reconcile with the books: trading profit and loss is the sum of
 *   closed orders' results, option results the sum of settled options', and fees
 *   (with the overnight fees) what the orders and options charged, in USD, apart from
 *   what wallet transfers charged.
 */
export async function reconcileBooks(db: Kysely<Database>): Promise<string[]> {
  const problems: string[] = [];

  const holdings = await sql<{ uid: number; book: string; kind: string; held: string; expected: string }>`
    with expected as (
      select uid, book, ${margin}::text as kind, sum(margin) as amount from trade_order where status in (${pending}, ${position}) group by uid, book
      union all
      select uid, book, ${optionEscrow}::text as kind, sum(amount) as amount from option_order where status = ${running} group by uid, book
    ), held as (
      select owner_uid as uid, book, kind, balance as amount from ledger_account
      where owner_uid is not null and kind in (${margin}, ${optionEscrow})
    )
    select coalesce(h.uid, e.uid) as uid, coalesce(h.book, e.book) as book, coalesce(h.kind, e.kind) as kind,
      coalesce(h.amount, 0)::text as held, coalesce(e.amount, 0)::text as expected
    from held h full outer join expected e on e.uid = h.uid and e.book = h.book and e.kind = h.kind
    where coalesce(h.amount, 0) <> coalesce(e.amount, 0)
    order by 1, 2, 3`.execute(db);
  for (const row of holdings.rows) {
    const what = row.kind === margin ? 'its open orders lock' : 'its running options hold';
    problems.push(`user ${row.uid} ${row.book} ${row.kind} holds ${amount(row.held)} but ${what} ${amount(row.expected)}`);
  }

  const missing = await sql<{ what: string; order_no: string; journal: string }>`
    with wanted as (
      select 'order' as what, order_no, ${key.orderOpen}::text || order_no as journal from trade_order
      union all
      select 'order', order_no, ${key.orderFee}::text || order_no from trade_order where price_type = ${PriceType.pending} and opened_at is not null
      union all
      select 'order', order_no, ${key.orderClose}::text || order_no from trade_order where status = ${deal} and close_reason is distinct from ${demoReset}
      union all
      select 'order', order_no, ${key.orderCancel}::text || order_no from trade_order where status = ${canceled} and close_reason is distinct from ${demoReset}
      union all
      select 'option', order_no, ${key.optionOpen}::text || order_no from option_order
      union all
      select 'option', order_no, ${key.optionSettle}::text || order_no from option_order where status = ${settled} and void_reason is distinct from ${demoReset}
    )
    select w.what, w.order_no, w.journal from wanted w
    where not exists (select 1 from ledger_journal j where j.idempotency_key = w.journal)
    order by 2, 3`.execute(db);
  for (const row of missing.rows) problems.push(`${row.what} ${row.order_no} has no journal ${row.journal}`);

  const closes = await sql<{ order_no: string; expected: string; posted: string }>`
    select t.order_no, (t.margin + t.profit_loss)::text as expected, sum(e.amount)::text as posted
    from trade_order t
    join ledger_journal j on j.idempotency_key = ${key.orderClose}::text || t.order_no
    join ledger_entry e on e.journal_id = j.id
    join ledger_account a on a.id = e.account_id and a.owner_uid = t.uid and a.kind = ${cash}
    where t.status = ${deal}
    group by t.order_no, t.margin, t.profit_loss
    having sum(e.amount) <> t.margin + t.profit_loss
    order by 1`.execute(db);
  for (const row of closes.rows) problems.push(`order ${row.order_no} closed for ${amount(row.expected)} but its close journal paid ${amount(row.posted)}`);

  const lateFees = await sql<{ order_no: string; journal: string }>`
    select t.order_no, f.idempotency_key as journal
    from trade_order t
    join ledger_journal c on c.idempotency_key = ${key.orderClose}::text || t.order_no
    join ledger_journal f on f.kind = ${JournalKind.overnightFee} and f.reference = t.order_no and f.id > c.id
    order by 1, 2`.execute(db);
  for (const row of lateFees.rows) problems.push(`order ${row.order_no} was charged ${row.journal} after it closed`);

  // An order's overnight fee is what its overnight journals took from the customer's cash.
  const overnight = await sql<{ order_no: string; recorded: string; posted: string }>`
    select t.order_no, t.overnight_fee::text as recorded, coalesce(sum(-e.amount), 0)::text as posted
    from trade_order t
    left join ledger_journal f on f.kind = ${JournalKind.overnightFee} and f.reference = t.order_no
    left join ledger_entry e on e.journal_id = f.id and e.account_id in (select id from ledger_account where owner_uid = t.uid and kind = ${cash})
    group by t.order_no, t.overnight_fee
    having coalesce(sum(-e.amount), 0) <> t.overnight_fee
    order by 1`.execute(db);
  for (const row of overnight.rows) problems.push(`order ${row.order_no} records ${amount(row.recorded)} of overnight fees but its journals charged ${amount(row.posted)}`);

  const house = await sql<{ book: string; account: string; held: string; expected: string }>`
    with books as (select 'real' as book union all select 'demo'),
    -- The house's USD accounts, less what wallet transfers put in them: transfer fees are not trading fees.
    transfers as (
      select a.id, sum(e.amount) as amount from ledger_entry e
      join ledger_journal j on j.id = e.journal_id join ledger_account a on a.id = e.account_id
      where a.owner_uid is null and j.kind in (${sql.join(walletTransferJournalKinds)})
      group by a.id
    ),
    balances as (
      select a.book, a.kind, a.balance - coalesce(t.amount, 0) as balance from ledger_account a
      left join transfers t on t.id = a.id
      where a.owner_uid is null and a.currency = ${baseCurrency}
    ),
    expected as (
      select b.book,
        -coalesce((select sum(profit_loss) from trade_order t where t.book = b.book and t.status = ${deal}), 0) as trading_pnl,
        -coalesce((select sum(win_lost) from option_order o where o.book = b.book and o.status = ${settled} and o.outcome <> 'void'), 0) as option_pnl,
        coalesce((select sum(fee) from trade_order t where t.book = b.book), 0)
          + coalesce((select sum(fee) from option_order o where o.book = b.book
              and not (o.status = ${settled} and o.outcome = 'void' and coalesce(o.void_reason, '') not in (${demoReset}, 'stop_out'))), 0) as fees
      from books b
    )
    select e.book, x.account, x.held::text as held, x.expected::text as expected
    from expected e
    cross join lateral (values
      (${HouseAccountKind.tradingResult}::text, coalesce((select balance from balances where book = e.book and kind = ${HouseAccountKind.tradingResult}), 0), e.trading_pnl),
      (${HouseAccountKind.optionResult}::text, coalesce((select balance from balances where book = e.book and kind = ${HouseAccountKind.optionResult}), 0), e.option_pnl),
      ('fees and overnight', coalesce((select sum(balance) from balances where book = e.book and kind in (${HouseAccountKind.fees}, ${HouseAccountKind.overnight})), 0), e.fees)
    ) as x(account, held, expected)
    where x.held <> x.expected
    order by 1, 2`.execute(db);
  for (const row of house.rows) problems.push(`house ${row.book} ${row.account} holds ${amount(row.held)} but the books say ${amount(row.expected)}`);

  // The house's loans account is minus what the active loans still owe (an approved loan paid out, its approved repayments back).
  const loans = await sql<{ held: string; expected: string }>`
    select coalesce((select sum(balance) from ledger_account where owner_uid is null and book = 'real' and kind = ${HouseAccountKind.loans} and currency = ${baseCurrency}), 0)::text as held,
      (-coalesce((select sum(owed) from loan where status = 1), 0))::text as expected`.execute(db);
  for (const row of loans.rows) if (money(row.held) !== money(row.expected)) problems.push(`house real loans holds ${amount(row.held)} but the active loans owe ${amount(row.expected)}`);
  const unpaid = await sql<{ id: number }>`
    select l.id from loan l where l.status in (1, 100)
      and not exists (select 1 from ledger_journal j where j.idempotency_key = ${JournalKeyPrefix.loanDisbursement}::text || l.id::text)
    order by 1`.execute(db);
  for (const row of unpaid.rows) problems.push(`loan ${row.id} is approved but has no journal ${JournalKeyPrefix.loanDisbursement}${row.id}`);

  return problems;
}
