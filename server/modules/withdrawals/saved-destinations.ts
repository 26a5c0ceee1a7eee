import type { BankCard, BankCardSummary, bankCardFields, SavedCryptoWallet } from '../../../src/shared/api/withdraw';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { isValidDestinationAddress } from '../../../src/shared/money/destination-address';
import { encodeField, maskedTail } from '../../../src/shared/money/encoded-field';
import { AppError } from '../../http/app-error';
import type { Executor } from '../../db/after-commit';
import type { BankCardRow, SavedDestinationsRepository } from './saved-destinations-repository';
import type { SealedFields } from './sealed-fields';
import type { CoinNetworkTerms } from './withdrawal-channels';

type CardFields = ReturnType<(typeof bankCardFields)['parse']>;

/** The personal fields of a card: encoded on the wire, sealed at rest. */
const personalFields = ['name', 'account', 'address', 'idNumber', 'phoneNumber'] as const;
const sealedColumn = {
  name: 'name_sealed',
  account: 'account_sealed',
  address: 'address_sealed',
  idNumber: 'id_number_sealed',
  phoneNumber: 'phone_sealed',
} as const;

const notFound = () => new AppError(ErrorCode.DATA_NOT_FOUND);
const pagesOf = (total: number, size: number) => Math.ceil(total / size);

/**
 * A customer's saved crypto addresses and bank cards. Personal fields arrive encoded under
 * the session's key, are decoded here, and stored sealed with the data key; they go back
 * encoded under the asking session's key. Only the owner reads, changes or deletes a row:
 * another customer's id answers as not found, exactly like an id that does not exist.
 */
export function createSavedDestinations(deps: {
  repository: SavedDestinationsRepository;
  sealed: SealedFields;
  coinNetworks: () => Promise<readonly CoinNetworkTerms[]>;
}) {
  const { repository, sealed } = deps;

  function cardColumns(fields: CardFields, aesKey: string) {
    const plain = Object.fromEntries(personalFields.map((field) => [field, sealed.decodeFromClient(fields[field], aesKey, field)])) as Record<
      (typeof personalFields)[number],
      string
    >;
    return {
      bank_name: fields.bankName,
      bank_code: fields.bankCode,
      bank_address: fields.bankAddress,
      swift_code: fields.swiftCode,
      branch_code: fields.branchCode,
      bank_country: fields.bankCountry,
      post_code: fields.postCode,
      account_type: fields.accountType,
      ins_num: fields.insNum,
      tra_num: fields.traNum,
      name_sealed: sealed.seal(plain.name),
      account_sealed: sealed.seal(plain.account),
      address_sealed: sealed.seal(plain.address),
      id_number_sealed: sealed.seal(plain.idNumber),
      phone_sealed: sealed.seal(plain.phoneNumber),
      key_id: sealed.keyId,
    };
  }

  function openCard(row: BankCardRow) {
    const plain = Object.fromEntries(personalFields.map((field) => [field, sealed.open(row[sealedColumn[field]], row.key_id)])) as Record<
      (typeof personalFields)[number],
      string
    >;
    return { row, plain };
  }

  return {
    async addresses(uid: number, aesKey: string, page: number, size: number): Promise<{ list: SavedCryptoWallet[]; pages: number }> {
      const [{ rows, total }, networks] = await Promise.all([repository.addresses(uid, page, size), deps.coinNetworks()]);
      const byId = new Map(networks.map((network) => [network.id, network]));
      return {
        list: rows.map((row) => {
          const network = byId.get(row.coin_network_id);
          return {
            walletId: row.id,
            currencyId: row.coin_network_id,
            currencyName: network?.currencyCode ?? '',
            protocol: network?.network ?? '',
            cryptocurrencyAddress: encodeField(sealed.open(row.address_sealed, row.key_id), aesKey),
            logoUrl: network?.logoUrl ?? '',
          };
        }),
        pages: pagesOf(total, size),
      };
    },

    /**
     * Checks and seals an address before the idempotent call's transaction opens (reads
     * stay outside it), and answers the write that saves it inside that transaction.
     */
    async prepareAddress(aesKey: string, body: { currencyId: number; cryptocurrencyAddress: string }) {
      const network = (await deps.coinNetworks()).find((item) => item.id === body.currencyId && item.enabled);
      if (!network) throw new AppError(ErrorCode.CURRENCY_NOT_FOUND);
      const address = sealed.decodeFromClient(body.cryptocurrencyAddress, aesKey, 'cryptocurrencyAddress').trim();
      if (address === '') throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'cryptocurrencyAddress is empty');
      // The network's format and checksum: a mistyped address is never saved, so never paid.
      if (!isValidDestinationAddress(network.network, address)) {
        throw new AppError(ErrorCode.DESTINATION_ADDRESS_INVALID, 'not an address of this network', 200, null, { key: 'withdraw.address_invalid', params: { network: network.network } });
      }
      const addressSealed = sealed.seal(address);
      return (executor: Executor, uid: number) => repository.insertAddress(executor, { uid, coinNetworkId: network.id, addressSealed, keyId: sealed.keyId });
    },

    async deleteAddress(uid: number, walletId: number) {
      if (!(await repository.deleteAddress(uid, walletId))) throw notFound();
    },

    /** Whether `address` is one of the owner's saved addresses on the coin network: the only places a crypto withdrawal pays to. */
    async isSavedAddress(uid: number, coinNetworkId: number, address: string): Promise<boolean> {
      const rows = await repository.addressesOn(uid, coinNetworkId);
      return rows.some((row) => sealed.open(row.address_sealed, row.key_id) === address);
    },

    /** When the owner last added a destination (or changed a card); null: never. */
    latestChangeAt: (uid: number) => repository.latestChangeAt(uid),

    /** A saved address in clear, for a withdrawal to it (the owner's only). */
    async addressOf(uid: number, walletId: number): Promise<{ coinNetworkId: number; address: string } | null> {
      const row = await repository.address(uid, walletId);
      return row ? { coinNetworkId: row.coin_network_id, address: sealed.open(row.address_sealed, row.key_id) } : null;
    },

    async cards(uid: number, page: number, size: number): Promise<{ list: BankCardSummary[]; pages: number }> {
      const { rows, total } = await repository.cards(uid, page, size);
      return {
        list: rows.map((row) => ({ id: row.id, bankName: row.bank_name, accountMasked: maskedTail(sealed.open(row.account_sealed, row.key_id)) })),
        pages: pagesOf(total, size),
      };
    },

    async card(uid: number, aesKey: string, id: number): Promise<BankCard> {
      const row = await repository.card(uid, id);
      if (!row) throw notFound();
      const { plain } = openCard(row);
      return {
        id: row.id,
        bankName: row.bank_name,
        bankCode: row.bank_code,
        bankAddress: row.bank_address,
        swiftCode: row.swift_code,
        branchCode: row.branch_code,
        bankCountry: row.bank_country,
        name: encodeField(plain.name, aesKey),
        account: encodeField(plain.account, aesKey),
        address: encodeField(plain.address, aesKey),
        postCode: row.post_code,
        idNumber: encodeField(plain.idNumber, aesKey),
        phoneNumber: encodeField(plain.phoneNumber, aesKey),
        accountType: row.account_type,
        insNum: row.ins_num,
        traNum: row.tra_num,
      };
    },

    /** A card's details in clear, as a withdrawal records where it pays (the owner's only). */
    async cardDetails(executor: Executor, uid: number, id: number) {
      const row = await repository.card(uid, id, executor);
      if (!row) return null;
      const { plain } = openCard(row);
      return { bankName: row.bank_name, swiftCode: row.swift_code, bankCountry: row.bank_country, ...plain };
    },

    async addCard(executor: Executor, uid: number, aesKey: string, fields: CardFields) {
      await repository.insertCard(executor, { uid, ...cardColumns(fields, aesKey) });
    },

    async updateCard(executor: Executor, uid: number, aesKey: string, id: number, fields: CardFields) {
      if (!(await repository.updateCard(executor, uid, id, { ...cardColumns(fields, aesKey), updated_at: new Date() }))) throw notFound();
    },

    async deleteCard(uid: number, id: number) {
      if (!(await repository.deleteCard(uid, id))) throw notFound();
    },
  };
}
export type SavedDestinations = ReturnType<typeof createSavedDestinations>;
