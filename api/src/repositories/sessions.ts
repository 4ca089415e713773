import type { Db } from '../db/database.ts';

export async function insertSession(
  db: Db,
  session: { id: string; userId: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      expires_at: session.expiresAt,
      last_seen_at: session.now,
    })
    .execute();
}

export function findLiveSession(db: Db, id: string, now: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id', 'sessions.user_id', 'users.email', 'users.name'])
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}
