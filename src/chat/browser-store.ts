// What the chat page keeps on the device, in IndexedDB (issue 45): the device's secret keys, the epoch keys
// it holds, and the history of its conversations in the order they arrived. Nothing here goes to the
// server; the key backup (key-backup.ts) is the only copy of the keys that does, sealed.
import type { TEpochKey } from "../../broker/client/epoch-keys";
import type { DeviceSecrets } from "./chat-client";

const DB_NAME = "review-mesh-chat";
const VERSION = 1;

/** One message of the history. `owner` is the person's membership (two people may share a browser). */
export interface StoredMessage {
  owner: string;
  messageId: string;
  /** Arrival order on this device. */
  n: number;
  /** `mesh`, or the member id of the other side of a direct conversation. */
  conversation: string;
  from: string;
  fromName: string;
  text: string;
  sentAt: string;
  createdAt: string;
  direct: boolean;
  mine: boolean;
}

type StoredDevice = DeviceSecrets & { owner: string; meshId: string };

let opening: Promise<IDBDatabase> | undefined;

function database(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      db.createObjectStore("devices", { keyPath: "owner" });
      db.createObjectStore("epochKeys", { keyPath: "owner" });
      const messages = db.createObjectStore("messages", { keyPath: ["owner", "messageId"] });
      messages.createIndex("byConversation", ["owner", "conversation", "n"]);
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("indexeddb"));
  });
  return opening;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error("indexeddb"));
  });
}

async function store(name: string, mode: IDBTransactionMode): Promise<IDBObjectStore> {
  return (await database()).transaction(name, mode).objectStore(name);
}

/** The device this person holds for this mesh in this browser, if any. */
export async function loadDevice(owner: string): Promise<DeviceSecrets | undefined> {
  const row = (await request((await store("devices", "readonly")).get(owner))) as StoredDevice | undefined;
  return row ? { memberId: row.memberId, signSecretKey: row.signSecretKey, boxSecretKey: row.boxSecretKey } : undefined;
}

export async function saveDevice(owner: string, meshId: string, device: DeviceSecrets): Promise<void> {
  await request((await store("devices", "readwrite")).put({ owner, meshId, ...device } satisfies StoredDevice));
}

export async function forgetDevice(owner: string): Promise<void> {
  await request((await store("devices", "readwrite")).delete(owner));
  await request((await store("epochKeys", "readwrite")).delete(owner));
}

export async function loadEpochKeys(owner: string): Promise<TEpochKey[]> {
  const row = (await request((await store("epochKeys", "readonly")).get(owner))) as { keys: TEpochKey[] } | undefined;
  return row?.keys ?? [];
}

export async function saveEpochKeys(owner: string, keys: readonly TEpochKey[]): Promise<void> {
  await request((await store("epochKeys", "readwrite")).put({ owner, keys: [...keys] }));
}

/** Adds a message (a message seen again, by its id, is kept as it was). */
export async function addMessage(message: StoredMessage): Promise<void> {
  const messages = await store("messages", "readwrite");
  const existing = await request(messages.get([message.owner, message.messageId]));
  if (!existing) await request(messages.add(message));
}

/** Up to `limit` messages of a conversation before arrival `before` (newest page first), oldest first. */
export async function loadPage(
  owner: string,
  conversation: string,
  limit: number,
  before = Number.MAX_SAFE_INTEGER,
): Promise<StoredMessage[]> {
  const index = (await store("messages", "readonly")).index("byConversation");
  const range = IDBKeyRange.bound([owner, conversation, -Infinity], [owner, conversation, before], false, true);
  return new Promise((resolve, reject) => {
    const out: StoredMessage[] = [];
    const req = index.openCursor(range, "prev");
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor || out.length >= limit) return resolve(out.reverse());
      out.push(cursor.value as StoredMessage);
      cursor.continue();
    };
    req.onerror = () => reject(req.error ?? new Error("indexeddb"));
  });
}

let lastN = 0;
/** The next arrival number: increasing on this device across reloads (time-based, never repeated in a tab). */
export function nextArrival(): number {
  lastN = Math.max(lastN + 1, Date.now() * 1000);
  return lastN;
}

const unreadKey = (meshId: string) => `mesh-chat-unread:${meshId}`;
/** The event the page raises in its own tab when the unread counts change (other tabs get `storage`). */
export const UNREAD_EVENT = "mesh-chat-unread";

/** Unread counts per conversation of a mesh, kept in localStorage (counts only, never text). */
export function readUnread(meshId: string): Record<string, number> {
  try {
    const value = JSON.parse(localStorage.getItem(unreadKey(meshId)) ?? "{}") as unknown;
    if (typeof value !== "object" || value === null) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, number] => typeof e[1] === "number" && e[1] > 0),
    );
  } catch {
    return {};
  }
}

export function writeUnread(meshId: string, counts: Record<string, number>): void {
  try {
    localStorage.setItem(unreadKey(meshId), JSON.stringify(counts));
  } catch {
    // A full or disabled storage: the count only lives in this page.
  }
  window.dispatchEvent(new CustomEvent(UNREAD_EVENT, { detail: meshId }));
}

/** The total of a mesh's unread counts. */
export const totalUnread = (meshId: string) => Object.values(readUnread(meshId)).reduce((a, b) => a + b, 0);
