/**
 * A variant's title worth showing beside its product's: not the only variant's "Default" or
 * "Default Title" (what a product without options calls its one variant). The cart section of the
 * json-contract renderer and the shop's checkout summaries show it.
 */
export const variantTitle = (title: string | null) => (title && !/^default( title)?$/i.test(title) ? title : null);
