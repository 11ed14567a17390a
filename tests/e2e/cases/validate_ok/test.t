A valid configuration using the built-in providers.

  $ cairn validate
  Success! The configuration is valid.
  
  $ cairn validate -no-color
  Success! The configuration is valid.
  
