import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '../../../contract';
import { FALLBACK_CONFIG, fetchConfig } from './api';

interface ConfigState {
  config: PublicConfig;
  loaded: boolean;
}

const ConfigContext = createContext<ConfigState>({ config: FALLBACK_CONFIG, loaded: false });

/** Product name and support links come from GET /api/config; loaded once for the whole app. */
export function ConfigProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ConfigState>({ config: FALLBACK_CONFIG, loaded: false });
  useEffect(() => {
    let live = true;
    void fetchConfig().then((result) => {
      if (!live) return;
      if (result.ok) setState({ config: result.data, loaded: true });
      else {
        console.error('Could not load the app settings:', result.kind === 'http' ? result.message : result.error);
        setState({ config: FALLBACK_CONFIG, loaded: true });
      }
    });
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => {
    if (state.loaded) document.title = `${state.config.productName} Feedback`;
  }, [state]);
  return <ConfigContext.Provider value={state}>{children}</ConfigContext.Provider>;
}

export function useConfig(): ConfigState {
  return useContext(ConfigContext);
}
