region="us-east-1"
instance_count=3
tags={
A="b"
}
