Terraform's show fails when the given path is neither a plan nor a state
file; a missing file is not an empty state (issue 15 point 15).

  $ cairn show -json NO_SUCH_FILE
  
  Error: Failed to read the given file as a state or plan file
  
  State read error: Error loading statefile: open NO_SUCH_FILE: no such file or
  directory
  
  Plan read error: couldn't load the provided path as either a local plan file
  (open NO_SUCH_FILE: no such file or directory) or a saved cloud plan (open
  NO_SUCH_FILE: no such file or directory)
  [1]
  $ cairn show NO_SUCH_FILE > /dev/null 2>&1
  [1]
