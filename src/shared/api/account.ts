import * as z from 'zod/mini';
import { contract, noBody } from './contract';
import { decimalString } from './envelope';


/** The signed-in account's money: available balance and what is locked (`lockMargin`: open orders' margin and running options' amounts). */
export const accountBalance = z.object({ balanceAmount: decimalString, lockMargin: decimalString });
export type AccountBalance = z.infer<typeof accountBalance>;

export const userInfoData = z.object({
  nick: z.string(),
  uid: z.int(),
  avator: z.string(),
  email: z.string(),
  inviteCode: z.string(),
  registerType: z.enum(['E', 'P']),
  walletType: z.int(),
  verifiedStatus: z.int(),
  account: accountBalance,
});
export type UserInfo = z.infer<typeof userInfoData>;

export const userInfo = contract('/v1/waa/user/info', noBody, userInfoData);
export const userBalance = contract('/v1/waa/user/balance', noBody, accountBalance);
/** Demo accounts only: the virtual balance restored (and demo orders closed). */
export const resetMock = contract('/v1/waa/user/resetMock', noBody, z.null());
