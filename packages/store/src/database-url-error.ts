/** DATABASE_URL does not say which database to use; fixing the variable is the only remedy. */
export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}
