import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadEveryScreenStrings } from '../i18n/i18n';

export type ScreenComponent = ComponentType<{ params: Record<string, string> }>;

/** A component whose code is fetched on demand: the component to render, and `load` to fetch it ahead (hover, idle). */
export interface LazyPart<TProps> {
  Component: LazyExoticComponent<ComponentType<TProps>>;
  load: () => Promise<unknown>;
}
export type LazyScreen = LazyPart<{ params: Record<string, string> }>;

/**
 * One fetch per part, shared by the prefetch and the render, so a screen prefetched on hover
 * renders at once. A failed fetch (offline) is forgotten, so the next try asks again. The
 * part comes with every screen's strings: the first load brings only the first screen's.
 */
export function lazyPart<TProps, TName extends string>(importer: () => Promise<Record<TName, ComponentType<TProps>>>, exportName: TName): LazyPart<TProps> {
  let pending: Promise<{ default: ComponentType<TProps> }> | null = null;
  const load = () => {
    pending ??= Promise.all([importer(), loadEveryScreenStrings()]).then(
      ([module]) => ({ default: module[exportName] }),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return { Component: lazy(load), load };
}

/** A route's screen fetched on demand. */
export function lazyScreen<TName extends string>(importer: () => Promise<Record<TName, ScreenComponent>>, exportName: TName): LazyScreen {
  return lazyPart(importer, exportName);
}
