"""A small inventory service used by the anchored-edit examples."""

import json
from dataclasses import dataclass


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0


class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, item):
        if item.sku in self.items:
            raise ValueError(f"duplicate sku {item.sku}")
        self.items[item.sku] = item

    def remove(self, sku):
        if sku not in self.items:
            raise KeyError(sku)
        del self.items[sku]

    def restock(self, sku, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.items[sku].quantity += amount

    def to_json(self):
        return json.dumps({sku: vars(item) for sku, item in self.items.items()})
