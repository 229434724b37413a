/** Where a lazy payload comes from: its collection reads the row (or a copy rescued before a write) on first need. */
export interface PayloadOrigin {
  /** The hit's slot, its point id, the collection's write generation and the time (ms) when the hit was returned. */
  readonly slot: number;
  readonly id: string;
  readonly generation: number;
  readonly at: number;
}

/**
 * The proxy behind a search hit's payload. The target starts with the fields the collection
 * answers from memory (workspace, repository, path, …); reading any other field, listing the
 * keys, serialising, spreading, comparing or changing the payload first reads the stored
 * payload and copies it into the target in its stored key order, after which the proxy behaves
 * exactly like that plain object.
 */
class LazyPayloadHandler implements ProxyHandler<Record<string | symbol, unknown>> {
  private loaded = false;

  constructor(
    private readonly origin: PayloadOrigin,
    private readonly load: (origin: PayloadOrigin) => Record<string, unknown>,
  ) {}

  private full(target: Record<string | symbol, unknown>): Record<string | symbol, unknown> {
    if (this.loaded) return target;
    const payload = this.load(this.origin);
    this.loaded = true;
    for (const key of Object.keys(target)) delete target[key];
    for (const key of Object.keys(payload)) Object.defineProperty(target, key, { value: payload[key], writable: true, enumerable: true, configurable: true });
    return target;
  }

  get(target: Record<string | symbol, unknown>, key: string | symbol, receiver: unknown): unknown {
    if (!this.loaded && !(typeof key === 'string' && Object.prototype.hasOwnProperty.call(target, key))) this.full(target);
    return Reflect.get(target, key, receiver);
  }

  has(target: Record<string | symbol, unknown>, key: string | symbol): boolean {
    return Reflect.has(this.full(target), key);
  }

  ownKeys(target: Record<string | symbol, unknown>): (string | symbol)[] {
    return Reflect.ownKeys(this.full(target));
  }

  getOwnPropertyDescriptor(target: Record<string | symbol, unknown>, key: string | symbol): PropertyDescriptor | undefined {
    return Reflect.getOwnPropertyDescriptor(this.full(target), key);
  }

  set(target: Record<string | symbol, unknown>, key: string | symbol, value: unknown, receiver: unknown): boolean {
    return Reflect.set(this.full(target), key, value, receiver);
  }

  defineProperty(target: Record<string | symbol, unknown>, key: string | symbol, descriptor: PropertyDescriptor): boolean {
    return Reflect.defineProperty(this.full(target), key, descriptor);
  }

  deleteProperty(target: Record<string | symbol, unknown>, key: string | symbol): boolean {
    return Reflect.deleteProperty(this.full(target), key);
  }

  preventExtensions(target: Record<string | symbol, unknown>): boolean {
    return Reflect.preventExtensions(this.full(target));
  }
}

/**
 * A payload that answers `known` fields from memory and reads the rest through `load` once,
 * on first use. `known` must hold only fields whose stored value is exactly the one given.
 */
export function lazyPayload<P>(known: Record<string, unknown>, origin: PayloadOrigin, load: (origin: PayloadOrigin) => Record<string, unknown>): P {
  return new Proxy(known, new LazyPayloadHandler(origin, load)) as P;
}
