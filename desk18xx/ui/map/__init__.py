"""The hex map: pure layout (geometry, hexlayout), Qt painting, scene and rendering."""
