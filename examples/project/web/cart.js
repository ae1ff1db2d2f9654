export function formatPrice(cents) {
  const euros = cents / 100;
  return `€${euros.toFixed(2)}`;
}

export function total(items) {
  return items.reduce((sum, i) => sum + i.price * i.qty, 0);
}
