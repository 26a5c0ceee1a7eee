import { walletCoinNetworks, type CoinNetworkOption } from '../../../../shared/api/wallet';
import type { HttpClient } from '../../../api/http-client';

export type { CoinNetworkOption };

/** The coins and networks one may save an address for and withdraw on (`wallet/coinNetworks`). */
export async function loadCoinNetworks(http: HttpClient): Promise<CoinNetworkOption[]> {
  return (await http.call(walletCoinNetworks, {})).dtoList;
}
