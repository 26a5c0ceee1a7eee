import { sql, type Kysely } from 'kysely';

/**
 * The fee quote's type may be empty (the specification: PERCENTAGE, FIX_AMOUNT or empty):
 * a coin network or the bank card channel with the empty type charges no fee. The checks of
 * 0015 and 0017 take it; the fee itself stays as set (the shared rule asks 0 beside it).
 */
export async function up(db: Kysely<unknown>) {
  await sql`alter table coin_network drop constraint coin_network_withdraw_fee_type_check`.execute(db);
  await sql`alter table coin_network add constraint coin_network_withdraw_fee_type_check check (withdraw_fee_type in ('PERCENTAGE', 'FIX_AMOUNT', ''))`.execute(db);
  await sql`alter table bank_withdraw_channel drop constraint bank_withdraw_channel_fee_type_check`.execute(db);
  await sql`alter table bank_withdraw_channel add constraint bank_withdraw_channel_fee_type_check check (fee_type in ('PERCENTAGE', 'FIX_AMOUNT', ''))`.execute(db);
}

export async function down(db: Kysely<unknown>) {
  // No fee reads the same as a fixed fee of 0.
  await sql`update coin_network set withdraw_fee_type = 'FIX_AMOUNT', withdraw_fee = 0 where withdraw_fee_type = ''`.execute(db);
  await sql`update bank_withdraw_channel set fee_type = 'FIX_AMOUNT', fee_num = 0 where fee_type = ''`.execute(db);
  await sql`alter table coin_network drop constraint coin_network_withdraw_fee_type_check`.execute(db);
  await sql`alter table coin_network add constraint coin_network_withdraw_fee_type_check check (withdraw_fee_type in ('PERCENTAGE', 'FIX_AMOUNT'))`.execute(db);
  await sql`alter table bank_withdraw_channel drop constraint bank_withdraw_channel_fee_type_check`.execute(db);
  await sql`alter table bank_withdraw_channel add constraint bank_withdraw_channel_fee_type_check check (fee_type in ('PERCENTAGE', 'FIX_AMOUNT'))`.execute(db);
}
