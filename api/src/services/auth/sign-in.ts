import type { User } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { findUserByEmail } from '../../repositories/users.ts';
import { decoyHash, verifyPassword } from './password.ts';

/** The user when the password matches, otherwise null; an unknown email costs the same time as a wrong password. */
export async function signIn(db: Db, email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    await verifyPassword(password, await decoyHash());
    return null;
  }
  if (!(await verifyPassword(password, user.password_hash))) return null;
  return { id: user.id, email: user.email, name: user.name };
}
