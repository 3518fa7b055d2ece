import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';

export interface PageHeaderOptions {
  /** Where the header's back button goes; no button when absent. */
  back?: string;
  /** Overrides the title derived from the path. */
  title?: string;
}

interface PageHeaderContextValue {
  set: (options: PageHeaderOptions) => void;
  /** The element at the header's right where a page's custom content is rendered. */
  slot: HTMLElement | null;
}

const PageHeaderContext = createContext<PageHeaderContextValue | null>(null);

/** The workspace layout's side: the options pages set, and a ref for the custom-content slot. */
export const usePageHeaderState = () => {
  const [options, setOptions] = useState<PageHeaderOptions>({});
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  const provider = useMemo<PageHeaderContextValue>(() => ({ set: setOptions, slot }), [slot]);
  return { options, provider, slotRef: setSlot };
};

export const PageHeaderProvider = PageHeaderContext.Provider;

/** Lets a page add a back button to the workspace header or replace its title. */
export const usePageHeader = ({ back, title }: PageHeaderOptions) => {
  const context = useContext(PageHeaderContext);
  const set = context?.set;
  useEffect(() => {
    set?.({ back, title });
    return () => set?.({});
  }, [set, back, title]);
};

/** Renders its children at the right of the workspace header. */
export const PageHeaderContent = ({ children }: { children: ReactNode }) => {
  const context = useContext(PageHeaderContext);
  return context?.slot ? createPortal(children, context.slot) : null;
};
