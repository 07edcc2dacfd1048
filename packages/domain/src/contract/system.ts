import { z } from 'zod';

export const versionResponseSchema = z.object({ gitSha: z.string() });
export type VersionResponse = z.infer<typeof versionResponseSchema>;

export const togglesResponseSchema = z.record(z.string(), z.boolean());
export type TogglesResponse = z.infer<typeof togglesResponseSchema>;
