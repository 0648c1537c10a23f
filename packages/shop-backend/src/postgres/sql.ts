import { ledgerSql } from '../store/ledger-sql.js'

/** PostgreSQL in the dialect table: under READ COMMITTED a read's row stays as read only with FOR UPDATE. */
export const SQL = ledgerSql({ lockForCommit: ' FOR UPDATE' })
