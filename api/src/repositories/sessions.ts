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
      created_at: session.now,
      expires_at: session.expiresAt,
      last_seen_at: session.now,
    })
    .execute();
}

/** The session `id`, unexpired at `now`, with its user. */
function liveSession(db: Db, id: string, now: Date) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .where('sessions.id', '=', id)
    .where('sessions.expires_at', '>', now);
}

export function findLiveSession(db: Db, id: string, now: Date) {
  return liveSession(db, id, now)
    .select([
      'sessions.id',
      'sessions.user_id',
      'sessions.created_at',
      'sessions.expires_at',
      'users.email',
      'users.name',
    ])
    .executeTakeFirst();
}

/** A session in use lives on: its expiry moves to `expiresAt`. */
export async function renewSession(db: Db, id: string, expiresAt: Date, now: Date): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ expires_at: expiresAt, last_seen_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/**
 * A live session's user and, in the same statement, their role in the organization `slug` (null when the
 * organization does not exist or they are not a member). One round trip guards every organization call.
 */
export function findLiveSessionInOrganization(db: Db, id: string, now: Date, slug: string) {
  return liveSession(db, id, now)
    .leftJoin('organizations', (join) => join.on('organizations.slug', '=', slug))
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.organization_id', '=', 'organizations.id')
        .onRef('memberships.user_id', '=', 'sessions.user_id'),
    )
    .select([
      'sessions.user_id',
      'sessions.created_at',
      'sessions.expires_at',
      'users.email',
      'users.name',
      'organizations.id as organization_id',
      'memberships.role',
    ])
    .executeTakeFirst();
}
