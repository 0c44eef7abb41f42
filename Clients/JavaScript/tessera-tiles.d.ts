/** A rect in content coordinates, in points. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Direction = "ltr" | "rtl";

/** One element of an answer, as the CLI's and the server's JSON has it. */
export interface LayoutElement {
  kind: "cell" | "header" | "footer" | "background";
  section: number;
  /** Cells only. */
  item?: number;
  /** [x, y, width, height]. */
  frame: [number, number, number, number];
  /** 0 for cells, 1 for headers and footers (2 when pinned), −1 for backgrounds. */
  zIndex: number;
}

/** The object GET …/visible?rect=… answers. */
export interface VisibleAnswer {
  axis: "vertical" | "horizontal";
  extent: number;
  contentSize: [number, number];
  /** Present when the answer holds any element of a carousel (orthogonal section). */
  orthogonal?: { section: number; contentLength: number }[];
  /** By section: header, cells by item, footer, background. */
  elements: LayoutElement[];
}

/** A tile manifest as read (GET …/layouts/{extent}/tiles). */
export interface TileManifest {
  /** The URL it was read from (tile templates resolve against it). */
  url: string;
  etag?: string;
  revision: string;
  tileLength: number;
  tileCount: number;
  contentSize: [number, number];
  axis: "vertical" | "horizontal";
  extent: number;
  tiles: string;
  columnTiles?: string;
}

export interface TileClientOptions {
  /** Replaces the global fetch (e.g. to add headers or count requests). */
  fetch?: (url: string, init: { headers: Record<string, string> }) => Promise<Response>;
  /** The budget of decoded tiles kept, in estimated bytes (default 8 MiB). */
  cacheBytes?: number;
  /** Read column tiles when the manifest offers them (default true). */
  columns?: boolean;
  /** Fetch the next tile in the scroll direction after each answer (default true). */
  prefetch?: boolean;
  /** The most tiles one viewport may need (default 64): a longer viewport is refused before any fetch. */
  maxTiles?: number;
}

export interface VisibleOptions {
  /** Default "ltr". */
  direction?: Direction;
  /** Each carousel's scroll offset, by section number: `{1: 120}`. */
  offsets?: Record<number, number>;
}

export interface TileClientStats {
  tilesFetched: number;
  /** On the wire when the server says (Content-Length), else decoded. */
  bytesFetched: number;
  /** Tiles a viewport found in the cache. */
  cacheHits: number;
  manifestsFetched: number;
  /** Manifest revalidations answered 304. */
  manifestsNotModified: number;
}

export class TileClientError extends Error {
  readonly url: string;
  /** The HTTP status, when an answer came with an unexpected one. */
  readonly status?: number;
}

export class TileClient {
  /** Reads the manifest (server route or static export) and resolves to a client. */
  static open(manifestURL: string | URL, options?: TileClientOptions): Promise<TileClient>;
  /** Reads nothing before the first `visible()` or `refresh()`. */
  constructor(manifestURL: string | URL, options?: TileClientOptions);
  readonly manifestURL: string;
  /** The manifest last read; null before the first. */
  readonly manifest: TileManifest | null;
  readonly stats: TileClientStats;
  /** Decoded tiles kept now, their estimated bytes and the budget. */
  readonly cache: { tiles: number; bytes: number; budget: number };
  /** The answer /visible gives for `rect`, from tiles. */
  visible(rect: Rect, options?: VisibleOptions): Promise<VisibleAnswer>;
  /** Revalidates the manifest (If-None-Match); a new revision drops the old tiles. */
  refresh(): Promise<TileManifest>;
  /** Resolves when the prefetch under way, if any, has finished. */
  waitForPrefetch(): Promise<void>;
}
