# Holds the state lock as another cairn or Terraform process would: an
# fcntl write lock on .terraform.tfstate.lock plus the lock info file,
# until a line arrives on the fifo "release".
import fcntl, os
fd = os.open(".terraform.tfstate.lock", os.O_RDWR | os.O_CREAT, 0o600)
fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
with open(".terraform.tfstate.lock.info", "w") as f:
    f.write('{"ID":"00000000-1111-2222-3333-444444444444","Operation":'
            '"OperationTypeApply","Info":"","Who":"someone@elsewhere",'
            '"Version":"1.9.0","Created":"2025-03-01T10:11:12.123456789Z",'
            '"Path":"terraform.tfstate"}')
open("ready", "w").close()
with open("release") as f:
    f.read()
os.close(fd)
os.remove(".terraform.tfstate.lock.info")
open("released", "w").close()
