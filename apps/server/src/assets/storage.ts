import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { assetContents } from '../db/schema.ts';

/**
 * Where the content of assets is kept, by asset id. The routes know only this, so an S3-compatible store can
 * take the place of the database one without touching them. `put` is called after the asset's row is stored
 * and replaces any content of the id; `delete` after the row is gone, and does nothing for an unknown id.
 */
export interface AssetStorage {
  put(id: string, bytes: Uint8Array): Promise<void>;
  get(id: string): Promise<Uint8Array | null>;
  delete(id: string): Promise<void>;
}

/** The content in PostgreSQL (`asset_contents`, bytea), which goes with its asset row (cascade). */
export function postgresAssetStorage(db: Db): AssetStorage {
  return {
    async put(id, bytes) {
      await db
        .insert(assetContents)
        .values({ assetId: id, bytes })
        .onConflictDoUpdate({ target: assetContents.assetId, set: { bytes: sql`excluded.bytes` } }); // sent once
    },
    async get(id) {
      const [row] = await db
        .select({ bytes: assetContents.bytes })
        .from(assetContents)
        .where(eq(assetContents.assetId, id));
      return row ? row.bytes : null;
    },
    async delete(id) {
      await db.delete(assetContents).where(eq(assetContents.assetId, id));
    },
  };
}
