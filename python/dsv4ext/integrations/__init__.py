"""Adapters that give the dsv4ext ops the calling conventions of serving engines."""
