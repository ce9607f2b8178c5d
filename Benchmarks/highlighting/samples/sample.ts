import { readFile } from "node:fs/promises";
import type { Post, User } from "./types";

export interface FeedOptions {
  limit?: number;
  includeDrafts: boolean;
  sort: "asc" | "desc";
}

const DEFAULTS: Readonly<FeedOptions> = { limit: 50, includeDrafts: false, sort: "desc" };

export class FeedLoader<T extends Post = Post> {
  private cache = new Map<string, T[]>();

  constructor(private readonly baseURL: URL, private opts: FeedOptions = DEFAULTS) {}

  async load(user: User): Promise<T[]> {
    const key = `${user.id}:${this.opts.limit ?? 0}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    const res = await fetch(new URL(`/users/${encodeURIComponent(user.id)}/posts`, this.baseURL));
    if (!res.ok) {
      throw new Error(`HTTP ${res.status}: ${res.statusText}`);
    }
    const posts = (await res.json()) as T[];
    const visible = posts
      .filter((p) => this.opts.includeDrafts || !p.tags.includes("draft"))
      .sort((a, b) => (this.opts.sort === "asc" ? 1 : -1) * (a.date.getTime() - b.date.getTime()));
    this.cache.set(key, visible);
    return visible;
  }
}

export async function loadConfig(path: string): Promise<Record<string, unknown>> {
  const text = await readFile(path, "utf8");
  return JSON.parse(text) as Record<string, unknown>;
}
